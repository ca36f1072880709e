package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestListItemsKeepTheirOwnDocument(t *testing.T) {
	body := []byte(`{"runs": [{"shortId": "a", "novel": [1, "]"]}, {"status": "RUNNING", "shortId": "b"}], "total": 2, "limit": 2, "offset": 0}`)
	var l RunList
	if err := decode("GET", "/v1/run", &Response{StatusCode: 200, Body: body}, &l); err != nil {
		t.Fatal(err)
	}
	if string(l.RawJSON()) != string(body) || len(l.Runs) != 2 ||
		string(l.Runs[0].RawJSON()) != `{"shortId": "a", "novel": [1, "]"]}` ||
		string(l.Runs[1].RawJSON()) != `{"status": "RUNNING", "shortId": "b"}` || l.Runs[1].Status != "RUNNING" {
		t.Errorf("%s | %s | %+v", l.Runs[0].RawJSON(), l.Runs[1].RawJSON(), l)
	}
	var tl TestCaseList
	body = []byte(`{"testCases": [{"id": "c1", "x": {}}], "total": 1}`)
	if err := json.Unmarshal(body, &tl); err != nil {
		t.Fatal(err)
	}
	KeepRaw(&tl, body)
	if string(tl.TestCases[0].RawJSON()) != `{"id": "c1", "x": {}}` {
		t.Errorf("%s", tl.TestCases[0].RawJSON())
	}
}

func TestListRunsRawSplitsWithoutDecoding(t *testing.T) {
	answers := map[string]string{
		"ok":      `{"novel": {"runs": 1}, "runs": [{"shortId": "a", "x": [1]}, {"status": "RUNNING", "shortId": "b\u00e9\"q"}, {}], "total": 7}`,
		"html":    `<html>proxy</html>`,
		"array":   `[{"shortId": "a"}]`,
		"notlist": `{"runs": {"shortId": "a"}, "total": 1}`,
		"total":   `{"runs": [], "total": "many"}`,
		"none":    `{"total": 0}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(answers[r.URL.Query().Get("branch")]))
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, HTTPClient: srv.Client()}
	l, err := c.ListRunsRaw(context.Background(), ListRunsOptions{Branch: "ok"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Total != 7 || len(l.Items) != 3 || string(l.RawJSON()) != answers["ok"] ||
		l.Items[0].ID != "a" || string(l.Items[0].RawJSON()) != `{"shortId": "a", "x": [1]}` || l.Items[1].ID != "bé\"q" || l.Items[2].ID != "" {
		t.Errorf("%+v", l)
	}
	if l, err := c.ListRunsRaw(context.Background(), ListRunsOptions{Branch: "none"}); err != nil || len(l.Items) != 0 {
		t.Errorf("no runs: %v %+v", err, l)
	}
	for _, branch := range []string{"html", "array", "notlist", "total"} {
		var de *DecodeError
		if _, err := c.ListRunsRaw(context.Background(), ListRunsOptions{Branch: branch}); !errors.As(err, &de) {
			t.Errorf("%s: %v, want a DecodeError", branch, err)
		}
	}
}

func TestReadPageSplitsItems(t *testing.T) {
	for _, tt := range []struct {
		doc, want string // want: the elements joined by " | "; "nil" for none
	}{
		{`{"runs": [{"a": 1}, {"b": "x]}\"{["}, [1, [2]], "s", -1.5e3, true, null]}`, `{"a": 1} | {"b": "x]}\"{["} | [1, [2]] | "s" | -1.5e3 | true | null`},
		{` { "total" : 2 , "novel" : {"runs": [9]}, "runs" : [ {"n":1} ,{"n":2} ] , "x": [] } `, `{"n":1} | {"n":2}`},
		{`{"runs": [1], "runs": [2, 3]}`, `2 | 3`},
		{`{"runs": []}`, ``},
		{`{"runs": {"a": 1}}`, `nil`},
		{`{"ru\u006es": [1]}`, `1`}, // as encoding/json decodes the name
		{`{"Runs": [1]}`, `nil`},
		{`{"other": [1]}`, `nil`},
		{`[{"runs": [1]}]`, `nil`},
	} {
		p, ok := readPage([]byte(tt.doc), "runs", "")
		parts := make([]string, len(p.Items))
		for i, b := range p.Items {
			parts[i] = string(b)
		}
		s := strings.Join(parts, " | ")
		if p.Items == nil {
			s = "nil"
		}
		if !ok || s != tt.want {
			t.Errorf("%s:\n got %s (valid %v)\nwant %s", tt.doc, s, ok, tt.want)
		}
	}
	if p, _ := readPage([]byte(`{"total": 12, "s": "a\"b"}`), "runs", ""); string(p.Total) != "12" {
		t.Errorf("total: %q", p.Total)
	}
}

func TestReadPageIDs(t *testing.T) {
	doc := []byte(`{"runs": [9], "novel": {"runs": 1, "total": 3}, "total": 7, "runs": [{"shortId": "a", "x": [1, "]"]}, ` +
		`{"status": "R", "shortId": "b\u00e9\"q", "shortId": "c"}, {}, 5, {"shortId": 1}, {"shortId": "d", "shortId": null}, {"shortId": "\u00e9\ud800"}]}`)
	p, ok := readPage(doc, "runs", "shortId")
	var items []string
	for _, it := range p.Items {
		items = append(items, string(it))
	}
	if !ok || string(p.Total) != "7" || p.NotArray || strings.Join(p.IDs, "|") != "a|c|||||\u00e9\ufffd" ||
		strings.Join(items, " | ") != `{"shortId": "a", "x": [1, "]"]} | {"status": "R", "shortId": "b\u00e9\"q", "shortId": "c"} | {} | 5 | {"shortId": 1} | {"shortId": "d", "shortId": null} | {"shortId": "\u00e9\ud800"}` {
		t.Errorf("%v %q %q %v %q", ok, p.Total, items, p.NotArray, p.IDs)
	}
	if p, ok := readPage([]byte(`{"runs": {"a": 1}}`), "runs", "id"); !ok || !p.NotArray || p.Items != nil {
		t.Errorf("object: %+v", p)
	}
	if p, ok := readPage([]byte(`{"runs": null, "total": 0}`), "runs", "id"); !ok || p.NotArray || p.Items != nil || string(p.Total) != "0" {
		t.Errorf("null: %+v", p)
	}
	if p, ok := readPage([]byte(`{"x": "\u00e9\\"}`), "runs", "id"); !ok || p.Items != nil || p.Total != nil {
		t.Errorf("none: %+v", p)
	}
}

// validityCases are documents on which readPage must give json.Valid's
// answer.
var validityCases = []string{
	`{"a": [1, 2.50, {"b": {}, "c": []}, [ ], { }], "s": "x, y: {z} [\"q\"]", "n": null, "t": true}`,
	` [ ] `, `"str"`, `-1e3`, `{"deep": [[[{"k": [ {} ]}]]]}`, "{\n\t\"a\" :\r\n 1 }",
	``, ` `, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `01`, `1.`, `.5`, `-`, `1e`,
	`1e+`, `"\x"`, "\"\x01\"", `"\u12G4"`, `tru`, `nul`, `[1] [2]`, `{"a":1}}`, `"\ud800"`, "\"\xff\"", `[[]]`, `{"":{}}`,
	`-0.0e-0`, `{"a":1,"a":2}`, "{\"\xff\":1}", `{"runs": [1,]}`, `{"runs": [{"shortId": "a",}]}`, `{"runs": [{"shortId" 1}]}`,
	`{"runs": {"a": 1,}}`, `{"total": 1,}`, `{"runs": [{"shortId": "a"}]} x`, `{"runs": [{"shortId": "\ud800\udc00"}], "total": 1e400}`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	`{"runs": [` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `]}`, `{"runs": [` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `]}`,
	`{"runs": [{"shortId": ` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}]}`,
	`{"runs": [{"shortId": ` + strings.Repeat("[", 9997) + strings.Repeat("]", 9997) + `}]}`,
}

func TestReadPageIsValid(t *testing.T) {
	for _, doc := range validityCases {
		if _, got := readPage([]byte(doc), "runs", "shortId"); got != json.Valid([]byte(doc)) {
			t.Errorf("readPage(%.60q) valid = %v, encoding/json says %v", doc, got, !got)
		}
	}
}

// FuzzReadPage holds readPage to encoding/json: the same validity as
// json.Valid, and on a valid object the same total, items and ids as
// unmarshalling it into json.RawMessage values.
func FuzzReadPage(f *testing.F) {
	for _, doc := range validityCases[:len(validityCases)-6] {
		f.Add([]byte(doc))
	}
	f.Add([]byte(`{"a": [{"b": "x", "c": [1]}, {"b": 2}, 3, {"b": "\u00e9", "b": "y"}], "total": 12}`))
	f.Add([]byte(`{"a": null, "a": [{"b": "\ud800\u00e9\n"}], "total": "x"}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		p, ok := readPage(doc, "a", "b")
		if want := json.Valid(doc); ok != want {
			t.Fatalf("readPage(%q) valid = %v, encoding/json says %v", doc, ok, want)
		}
		var top map[string]json.RawMessage
		if !ok || json.Unmarshal(doc, &top) != nil {
			if p.Items != nil || p.IDs != nil || p.Total != nil || p.NotArray {
				t.Fatalf("readPage(%q) = %+v, want nothing", doc, p)
			}
			return
		}
		if string(p.Total) != string(top["total"]) || (p.Total == nil) != (top["total"] == nil) {
			t.Fatalf("readPage(%q).Total = %q, want %q", doc, p.Total, top["total"])
		}
		raw, has := top["a"]
		var items []json.RawMessage
		switch {
		case !has || string(raw) == "null":
			if p.Items != nil || p.NotArray {
				t.Fatalf("readPage(%q) = %+v, want no items", doc, p)
			}
			return
		case json.Unmarshal(raw, &items) != nil:
			if !p.NotArray || p.Items != nil {
				t.Fatalf("readPage(%q) = %+v, want NotArray", doc, p)
			}
			return
		}
		if p.NotArray || len(p.Items) != len(items) || len(p.IDs) != len(items) {
			t.Fatalf("readPage(%q) = %+v, want %q", doc, p, items)
		}
		for i, it := range items {
			var m map[string]json.RawMessage
			var id string
			if json.Unmarshal(it, &m) == nil {
				_ = json.Unmarshal(m["b"], &id)
			}
			if string(p.Items[i]) != string(it) || p.IDs[i] != id {
				t.Fatalf("readPage(%q) item %d = %q (id %q), want %q (id %q)", doc, i, p.Items[i], p.IDs[i], it, id)
			}
		}
	})
}

// BenchmarkReadPage reads a page of 100 runs as the service sends it, with
// json.Valid alone for comparison.
func BenchmarkReadPage(b *testing.B) {
	var page bytes.Buffer
	if err := json.Compact(&page, benchRunList(100)); err != nil {
		b.Fatal(err)
	}
	doc := page.Bytes()
	b.SetBytes(int64(len(doc)))
	b.Run("readPage", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if p, ok := readPage(doc, "runs", "shortId"); !ok || len(p.Items) != 100 {
				b.Fatal(ok, len(p.Items))
			}
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		for b.Loop() {
			json.Valid(doc)
		}
	})
}
