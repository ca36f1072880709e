package api

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestArrayMember(t *testing.T) {
	for _, tt := range []struct {
		doc, want string // want: the elements joined by " | "; "nil" for none
	}{
		{`{"runs": [{"a": 1}, {"b": "x]}\"{["}, [1, [2]], "s", -1.5e3, true, null]}`, `{"a": 1} | {"b": "x]}\"{["} | [1, [2]] | "s" | -1.5e3 | true | null`},
		{` { "total" : 2 , "novel" : {"runs": [9]}, "runs" : [ {"n":1} ,{"n":2} ] , "x": [] } `, `{"n":1} | {"n":2}`},
		{`{"runs": [1], "runs": [2, 3]}`, `2 | 3`},
		{`{"runs": []}`, ``},
		{`{"ru\u006es": [1]}`, `nil`},
		{`{"other": [1]}`, `nil`},
		{`[{"runs": [1]}]`, `nil`},
	} {
		got := arrayMember([]byte(tt.doc), "runs")
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
}

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
