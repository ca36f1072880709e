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

func TestValid(t *testing.T) {
	for _, doc := range append(indentCases, ``, ` `, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `01`, `1.`, `.5`, `-`, `1e`,
		`1e+`, `"\x"`, "\"\x01\"", `"\u12G4"`, `tru`, `nul`, `[1] [2]`, `{"a":1}}`, `"\ud800"`, "\"\xff\"", `[[]]`, `{"":{}}`,
		`-0.0e-0`, strings.Repeat("[", 10001)+strings.Repeat("]", 10001), strings.Repeat("[", 10000)+strings.Repeat("]", 10000)) {
		if got, want := Valid([]byte(doc)), json.Valid([]byte(doc)); got != want {
			t.Errorf("Valid(%.60q) = %v, encoding/json says %v", doc, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, doc := range append(indentCases, `{"a":1,}`, `[1e+5, -0.5, "\u00e9\n"]`, `{"a" : [true, false, null]}`) {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if got, want := Valid(doc), json.Valid(doc); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", doc, got, want)
		}
	})
}

func BenchmarkValid(b *testing.B) {
	doc := []byte(`{"runs": [` + strings.Repeat(`{"shortId": "r0001", "status": "COMPLETED", "result": "PASSED", "branch": "feature/checkout-v2", "passedCount": 4, "failedCount": 1, "url": "https://app.example.com/runs/r0001"},`, 99) +
		`{"shortId": "r0100"}], "total": 100000, "limit": 100, "offset": 0}`)
	b.SetBytes(int64(len(doc)))
	b.Run("jsonscan", func(b *testing.B) {
		for b.Loop() {
			Valid(doc)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			json.Valid(doc)
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
