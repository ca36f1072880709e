package output

import (
	"bytes"
	"testing"

	"go.yaml.in/yaml/v3"
)

// A bidi override in service text must not reach the terminal raw in
// -o yaml, and the document must still read back to the same strings.
func TestYAMLEscapesBidiOverridesAndKeepsThem(t *testing.T) {
	var b bytes.Buffer
	in := map[string]any{"a\u202ek": "x\u202ey", "plain": "\u2067only", "c1": "\u009b2J\u202e", "n": 1}
	if err := Print(&b, Options{Format: FormatYAML}, in); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsRune(b.Bytes(), 0x202e) || bytes.ContainsRune(b.Bytes(), 0x2067) {
		t.Fatalf("raw bidi override in YAML:\n%s", b.String())
	}
	var back map[string]any
	if err := yaml.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back["a\u202ek"] != "x\u202ey" || back["plain"] != "\u2067only" || back["c1"] != "\u009b2J\u202e" {
		t.Fatalf("round trip: %#v", back)
	}
}
