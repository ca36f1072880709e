package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestReadPageSplitsItems(t *testing.T) {
	for _, tt := range []struct {
		doc, want string // want: the elements joined by " | "; "nil" for none
	}{
		{`{"runs": [{"a": 1}, {"b": "x]}\"{["}, [1, [2]], "s", -1.5e3, true, null]}`, `{"a": 1} | {"b": "x]}\"{["} | [1, [2]] | "s" | -1.5e3 | true | null`},
		{` { "total" : 2 , "novel" : {"runs": [9]}, "runs" : [ {"n":1} ,{"n":2} ] , "x": [] } `, `{"n":1} | {"n":2}`},
		{`{"runs": [1], "runs": [2, 3]}`, `2 | 3`},
		{`{"runs": []}`, ``},
		{`{"runs": {"a": 1}}`, `nil`},
		{`{"ru\u006es": [1]}`, `nil`},
		{`{"other": [1]}`, `nil`},
		{`[{"runs": [1]}]`, `nil`},
	} {
		got := ReadPage([]byte(tt.doc), "runs", "").Items
		parts := make([]string, len(got))
		for i, b := range got {
			parts[i] = string(b)
		}
		s := strings.Join(parts, " | ")
		if got == nil {
			s = "nil"
		}
		if s != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.doc, s, tt.want)
		}
	}
	if v := ReadPage([]byte(`{"total": 12, "s": "a\"b"}`), "runs", "").Total; string(v) != "12" {
		t.Errorf("total: %q", v)
	}
}

var indentCases = []string{
	`{"a": [1, 2.50, {"b": {}, "c": []}, [ ], { }], "s": "x, y: {z} [\"q\"]", "n": null, "t": true}`,
	` [ ] `, `"str"`, `-1e3`, `{"deep": [[[{"k": [ {} ]}]]]}`, "{\n\t\"a\" :\r\n 1 }",
}

func TestAppendIndentLaysOutAsJSONIndent(t *testing.T) {
	for _, doc := range indentCases {
		checkIndent(t, []byte(doc))
	}
}

func checkIndent(t *testing.T, doc []byte) {
	t.Helper()
	var want bytes.Buffer
	if err := json.Indent(&want, doc, "    ", "  "); err != nil {
		return
	}
	// json.Indent keeps trailing space; AppendIndent drops it.
	if got := AppendIndent(nil, doc, "    ", "  "); string(got) != strings.TrimRight(want.String(), " \t\r\n") {
		t.Errorf("%q:\n got %s\nwant %s", doc, got, want.String())
	}
}

func FuzzAppendIndent(f *testing.F) {
	for _, doc := range indentCases {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if json.Valid(doc) {
			checkIndent(t, doc)
		} else {
			AppendIndent(nil, doc, "", "  ") // must not panic
			ReadPage(doc, "a", "b")
		}
	})
}

func TestReadPage(t *testing.T) {
	doc := []byte(`{"runs": [9], "novel": {"runs": 1, "total": 3}, "total": 7, "runs": [{"shortId": "a", "x": [1, "]"]}, ` +
		`{"status": "R", "shortId": "b\u00e9\"q", "shortId": "c"}, {}, 5, {"shortId": 1}]}`)
	p := ReadPage(doc, "runs", "shortId")
	var items []string
	for _, it := range p.Items {
		items = append(items, string(it))
	}
	if string(p.Total) != "7" || p.NotArray || strings.Join(p.IDs, "|") != "a|c|||" ||
		strings.Join(items, " | ") != `{"shortId": "a", "x": [1, "]"]} | {"status": "R", "shortId": "b\u00e9\"q", "shortId": "c"} | {} | 5 | {"shortId": 1}` {
		t.Errorf("%q %q %v %q", p.Total, items, p.NotArray, p.IDs)
	}
	if p := ReadPage([]byte(`{"runs": {"a": 1}}`), "runs", "id"); !p.NotArray || p.Items != nil {
		t.Errorf("object: %+v", p)
	}
	if p := ReadPage([]byte(`{"runs": null, "total": 0}`), "runs", "id"); p.NotArray || p.Items != nil || string(p.Total) != "0" {
		t.Errorf("null: %+v", p)
	}
	if p := ReadPage([]byte(`{"x": "\u00e9\\"}`), "runs", "id"); p.Items != nil || p.Total != nil {
		t.Errorf("none: %+v", p)
	}
	if got := stringValue([]byte(`"b\u00e9\"q"`)); got != "bé\"q" {
		t.Errorf("stringValue: %q", got)
	}
}
