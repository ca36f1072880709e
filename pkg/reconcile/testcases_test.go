package reconcile

import (
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

// A field the test case list leaves out (absent, null or empty: the
// request always has a name, an application and a goal) is unknown, not
// another value: the test case is named, never skipped, as skipping it
// would send the request again beside it. Only a field shown with another
// value rules a test case out.
func TestFindTestCasesNamesOneTheListShowsWithoutAField(t *testing.T) {
	list := `{"testCases":[
	 {"id":"tc-all","name":"n","applicationShortId":"app_a","goal":" g "},
	 {"id":"tc-no-goal","name":"n","applicationShortId":"app_a"},
	 {"id":"tc-null-goal","name":"n","applicationShortId":"app_a","goal":null},
	 {"id":"tc-blank-goal","name":"n","applicationShortId":"app_a","goal":"  "},
	 {"id":"tc-no-name","applicationShortId":"app_a","goal":"g"},
	 {"id":"tc-empty-app","name":"n","applicationShortId":"","goal":"g"},
	 {"id":"tc-bare"},
	 {"id":"tc-other-goal","name":"n","applicationShortId":"app_a","goal":"other"},
	 {"id":"tc-other-name","name":"m","goal":"g"},
	 {"id":"tc-other-app","name":"n","applicationShortId":"app_b"}
	],"total":10,"limit":100,"offset":0}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, list)
	}))
	defer srv.Close()
	c := &api.Client{BaseURL: srv.URL, APIKey: "k", HTTPClient: srv.Client()}
	found, err := findTestCases(context.Background(), c, api.CreateTestCaseRequest{Name: "n", ApplicationShortID: "app_a", Goal: "g"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range found {
		got[f.ID] = f.Unsure
	}
	want := map[string]string{"tc-all": "", "tc-no-goal": "its goal", "tc-null-goal": "its goal", "tc-blank-goal": "its goal",
		"tc-no-name": "its name", "tc-empty-app": "its application", "tc-bare": "its name, its application or its goal"}
	if !maps.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
}
