package api

import (
	"strings"
	"testing"
)

func TestEditStringsChangesOnlyTheEditedValues(t *testing.T) {
	doc := `{"a": [{"h": {"Cookie": "s=1", "Accept": "x"}}, {"h": {"Cookie": "t\"2"}}], "Cookie": "top", "n": 1.50, "z": {}}`
	var seen []string
	var r Raw
	r.SetRawJSON([]byte(doc))
	err := r.EditStrings(func(path []string, v string) (string, bool) {
		seen = append(seen, strings.Join(path, "/")+"="+v)
		if len(path) == 4 && path[0] == "a" && path[2] == "h" && path[3] == "Cookie" {
			return "****", true
		}
		return v, false
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a": [{"h": {"Cookie": "****", "Accept": "x"}}, {"h": {"Cookie": "****"}}], "Cookie": "top", "n": 1.50, "z": {}}`
	if got := string(r.RawJSON()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := strings.Join(seen, " "); got != `a/0/h/Cookie=s=1 a/0/h/Accept=x a/1/h/Cookie=t"2 Cookie=top` {
		t.Errorf("paths: %s", got)
	}
}

func TestEditStringsWithoutDocument(t *testing.T) {
	var r Raw
	if err := r.EditStrings(func([]string, string) (string, bool) { return "x", true }); err != nil || r.RawJSON() != nil {
		t.Errorf("%v %q", err, r.RawJSON())
	}
}
