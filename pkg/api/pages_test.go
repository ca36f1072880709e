package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
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
