package yamlcheck

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestLocateNamesTheLineToFix(t *testing.T) {
	for data, want := range map[string]int{
		"a: 1\nb:\n  c: 2\n d: 3\n":                     4, // yaml.v3 says line 3
		"a: 1\nb: [\n":                                  2,
		"- name: a\n  owner: b\n- name: c\n owner: d\n": 4, // line 3
		"- name: a\n\n# c\n- name: c\n\towner: d\n":     5, // line 4
		"- name: a\n  owner b\n  until: 1\n":            2, // read up to 3
		"- name: \"a\n  owner: b\n  until: 1\n":         1, // read to the end
		"a: b: c\n":                                     1, // no line
	} {
		err := yaml.Unmarshal([]byte(data), new(yaml.Node))
		if got, _, ok := Locate(err, []byte(data)); got != want || !ok {
			t.Errorf("Locate(%q) = %d %v, want %d", data, got, ok, want)
		}
	}
}

func TestNearestIsASlipNotAGuess(t *testing.T) {
	known := []string{"base_url", "project", "output"}
	for key, want := range map[string]string{"baseurl": "base_url", "Base-URL": "base_url", "projct": "project", "colour": "", "x": ""} {
		if got := Nearest(key, known, 2); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", key, got, want)
		}
	}
}

// A typo late in a large file is found in a few parses of it, not one per
// line (which took 108 s for a 144 KB quarantine file).
func TestLocateIsLinear(t *testing.T) {
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "- name: Test case %d\n  owner: \"@team\"\n  reason: flaky\n  until: 2026-12-31\n", i)
	}
	for typo, want := range map[string]int{
		" - name: x\n":             2001,
		"- name: x\n   owner: y\n": 2002,
		"- name: x\n  owner y\n":   2002,
		"- name: x\n\towner: y\n":  2002,
		"- name: [x\n  owner: y\n": 2001,
		"- name: x\n  owner: 'y\n": 2002,
	} {
		data := []byte(b.String() + typo + "- name: y\n  owner: z\n")
		err := yaml.Unmarshal(data, new(yaml.Node))
		parsed := 0
		unmarshal = func(prefix []byte, v any) error { parsed += len(prefix); return yaml.Unmarshal(prefix, v) }
		line, msg, ok := Locate(err, data)
		unmarshal = yaml.Unmarshal
		if line != want || !ok {
			t.Errorf("%q: line %d (%s), want %d", typo, line, msg, want)
		}
		if parsed > maxParses*len(data) {
			t.Errorf("%q: parsed %d bytes of a %d-byte file", typo, parsed, len(data))
		}
	}
}

func BenchmarkLocateLateTypo(b *testing.B) {
	var sb strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&sb, "- name: Test case %d\n  owner: \"@team\"\n  until: 2026-12-31\n", i)
	}
	data := []byte(sb.String() + " - name: x\n")
	err := yaml.Unmarshal(data, new(yaml.Node))
	for b.Loop() {
		Locate(err, data)
	}
}
