package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

type sample struct {
	ShortID string   `json:"shortId"`
	Name    string   `json:"name"`
	Count   int64    `json:"count"`
	Ratio   float64  `json:"ratio"`
	Enabled bool     `json:"isEnabled"`
	Branch  *string  `json:"branch"`
	Labels  []string `json:"labels"`
}

func mustPrint(t *testing.T, o Options, data any) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Print(&buf, o, data); err != nil {
		t.Fatalf("Print: %v", err)
	}
	return buf.String()
}

func TestPrintJSON(t *testing.T) {
	got := mustPrint(t, Options{Format: FormatJSON}, sample{ShortID: "run-1", Name: "a<b>&c", Labels: []string{"x"}})
	want := `{
  "shortId": "run-1",
  "name": "a<b>&c",
  "count": 0,
  "ratio": 0,
  "isEnabled": false,
  "branch": null,
  "labels": [
    "x"
  ]
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPrintJSONEscapesControls(t *testing.T) {
	name := "\x1b]0;pwned\x07 \u009b31m \x7f \u202eevil"
	got := mustPrint(t, Options{Format: FormatJSON}, map[string]string{"name": name})
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "\x7f", "\u202e"} {
		if strings.Contains(got, bad) {
			t.Errorf("output contains raw %q: %q", bad, got)
		}
	}
	for _, esc := range []string{`\u001b`, `\u0007`, `\u009b`, `\u007f`, `\u202e`} {
		if !strings.Contains(got, esc) {
			t.Errorf("output lacks %s: %s", esc, got)
		}
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(got), &back); err != nil || back["name"] != name {
		t.Fatalf("escaped JSON must decode to the same value: %q, %v", back["name"], err)
	}
}

func TestPrintYAML(t *testing.T) {
	branch := "main"
	got := mustPrint(t, Options{Format: FormatYAML}, sample{
		ShortID: "run-1", Name: "true", Count: 12345678901234, Ratio: 0.5, Enabled: true, Branch: &branch, Labels: []string{"123"},
	})
	want := `shortId: run-1
name: "true"
count: 12345678901234
ratio: 0.5
isEnabled: true
branch: main
labels:
  - "123"
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPrintYAMLEscapesControls(t *testing.T) {
	got := mustPrint(t, Options{Format: FormatYAML}, map[string]string{"msg": "a\x1b[31mb\nline2"})
	if strings.Contains(got, "\x1b") {
		t.Fatalf("YAML contains a raw ESC: %q", got)
	}
}

func TestPrintJQ(t *testing.T) {
	data := map[string]any{
		"runs":  []sample{{ShortID: "run-1", Name: "one"}, {ShortID: "run-2", Name: "t\x1b]0;x\x07wo"}},
		"total": 2,
	}
	tests := []struct{ expr, want string }{
		{".runs[].shortId", "run-1\nrun-2\n"},
		{".runs[1].name", "two\n"}, // raw strings are sanitised
		{".total", "2\n"},
		{".runs[0] | {labels, shortId}", `{"shortId":"run-1","labels":null}` + "\n"}, // the document's key order
		{`.runs | map(.name | "<" + . + ">") | join(",")`, "<one>,<two>\n"},
		{"empty", ""},
	}
	for _, tt := range tests {
		if got := mustPrint(t, Options{JQ: tt.expr}, data); got != tt.want {
			t.Errorf("--jq %s: got %q, want %q", tt.expr, got, tt.want)
		}
	}
}

// --jq results keep the service's key order, which gojq's maps lose: an
// object of the document in its order, one the filter built by where its
// keys first appear. On a terminal they are indented; elsewhere each is a
// line of its own for scripts.
func TestPrintJQKeepsKeyOrder(t *testing.T) {
	doc := json.RawMessage(`{"shortId":"r1","status":"COMPLETED","zeta":1,"runTestCases":[` +
		`{"shortId":"r1-0","name":"a\u009b2J","result":"PASSED","alpha":[{"y":1,"x":2}]}],"made":{"b":1,"a":2}}`)
	tests := []struct {
		expr     string
		terminal bool
		want     string
	}{
		{".runTestCases[0]", false, `{"shortId":"r1-0","name":"a\u009b2J","result":"PASSED","alpha":[{"y":1,"x":2}]}` + "\n"},
		{"{result: .runTestCases[0].result, status, shortId}", false, `{"shortId":"r1","status":"COMPLETED","result":"PASSED"}` + "\n"},
		{"{new: 1, zeta, b: 2}", false, `{"zeta":1,"b":2,"new":1}` + "\n"},
		{".made, .runTestCases[0].alpha", false, `{"b":1,"a":2}` + "\n" + `[{"y":1,"x":2}]` + "\n"},
		{".runTestCases[0] | {name, alpha}", true, "{\n  \"name\": \"a\\u009b2J\",\n  \"alpha\": [\n    {\n      \"y\": 1,\n      \"x\": 2\n    }\n  ]\n}\n"},
		{".zeta, .shortId", true, "1\nr1\n"},
	}
	for _, tt := range tests {
		if got := mustPrint(t, Options{JQ: tt.expr, Terminal: tt.terminal}, doc); got != tt.want {
			t.Errorf("--jq %s (terminal %v):\ngot  %s\nwant %s", tt.expr, tt.terminal, got, tt.want)
		}
	}
}

func TestPrintJQRuntimeError(t *testing.T) {
	var buf bytes.Buffer
	err := Print(&buf, Options{JQ: `.a, error("boom")`}, map[string]int{"a": 1})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want the jq error", err)
	}
	if buf.String() != "1\n" {
		t.Fatalf("results before the error must be printed, got %q", buf.String())
	}
}

func TestPrintTableFormatIsAnError(t *testing.T) {
	if err := Print(&bytes.Buffer{}, Options{}, 1); err == nil {
		t.Fatal("want an error for the table format")
	}
}

// rawDoc is a value that carries its service document, as api models do.
type rawDoc struct {
	ID  string `json:"id"`
	raw json.RawMessage
}

func (r rawDoc) RawJSON() json.RawMessage { return r.raw }

// The service's document is printed as sent (key order, numbers, unknown
// fields, no invented ones), indented, with what a terminal would act on
// escaped: C1 controls, DEL, bidi overrides and line separators sent
// unescaped, and bytes that are not UTF-8 (a lone 0x9b is an 8-bit CSI).
func TestPrintRawDocument(t *testing.T) {
	doc := "{\"z\": 1.50, \"name\": \"a\u009b2J\x7f\u202e\u2028<&>\x9b\", \"esc\": \"\\u001b]0;x\\u0007\", \"novel\": [true]}"
	got := mustPrint(t, Options{Format: FormatJSON}, rawDoc{raw: json.RawMessage(doc)})
	want := `{
  "z": 1.50,
  "name": "a\u009b2J\u007f\u202e\u2028<&>\ufffd",
  "esc": "\u001b]0;x\u0007",
  "novel": [
    true
  ]
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := mustPrint(t, Options{JQ: ".novel[0], .z"}, rawDoc{raw: json.RawMessage(doc)}); got != "true\n1.50\n" {
		t.Errorf("--jq: %q", got)
	}
	if got := mustPrint(t, Options{Format: FormatYAML}, rawDoc{raw: json.RawMessage(`{"b": 1, "a": {"d": null, "c": "x"}}`)}); got != "b: 1\na:\n  d: null\n  c: x\n" {
		t.Errorf("yaml: %q", got)
	}
	// A value without a document is encoded, as before.
	if got := mustPrint(t, Options{Format: FormatJSON}, rawDoc{ID: "x"}); got != "{\n  \"id\": \"x\"\n}\n" {
		t.Errorf("no document: %q", got)
	}
}

// An expression written for one object, run on an array (the document of
// several runs), fails with the expression that takes each element.
func TestPrintJQOnAnArraySuggestsEachElement(t *testing.T) {
	doc := json.RawMessage(`[{"shortId":"r1","status":"COMPLETED"},{"shortId":"r2","status":"COMPLETED"}]`)
	for expr, want := range map[string]string{
		".status":                "--jq '.[].status'",
		" .runTestCases[].name ": "--jq '.[].runTestCases[].name'",
		".status, .shortId":      "--jq '.[] | .status, .shortId'",
		`select(.status == "x")`: `--jq '.[] | select(.status == "x")'`,
		".[0].status":            "",
		`.[] | .runs[0]`:         "",
		`{status}`:               "--jq '.[] | {status}'",
	} {
		var buf bytes.Buffer
		err := Print(&buf, Options{JQ: expr}, doc)
		if want == "" {
			if err != nil && strings.Contains(err.Error(), "for each of them") {
				t.Errorf("--jq %s: %v, want no hint", expr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "expected an object but got: array") ||
			!strings.Contains(err.Error(), "\n  the document is an array of 2: for each of them, "+want) {
			t.Errorf("--jq %s: %v, want the hint %s", expr, err, want)
		}
	}
}
