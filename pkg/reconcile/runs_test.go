package reconcile

import (
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func TestRunLikeStart(t *testing.T) {
	for name, tc := range map[string]struct {
		req     api.StartRunRequest
		apps    []string
		tests   int
		unshown string
	}{
		"plan":             {req: api.StartRunRequest{TestPlanShortID: "pln_a"}},
		"apps, once each":  {req: api.StartRunRequest{Applications: []api.RunApplication{{ApplicationShortID: "app_a"}, {ApplicationShortID: "app_b"}, {ApplicationShortID: "app_a"}}}, apps: []string{"app_a", "app_b"}},
		"ids, once each":   {req: api.StartRunRequest{TestCaseIDs: []string{"A", "b", "a"}}, tests: 2},
		"environment":      {req: api.StartRunRequest{Applications: []api.RunApplication{{ApplicationShortID: "app_a", Environment: &api.RunEnvironment{ShortID: "env_a"}}}}, apps: []string{"app_a"}, unshown: "its environment"},
		"url":              {req: api.StartRunRequest{Applications: []api.RunApplication{{Environment: &api.RunEnvironment{URL: "https://x"}}}}, unshown: "its environment's URL"},
		"device and build": {req: api.StartRunRequest{Applications: []api.RunApplication{{ApplicationShortID: "app_a", DevicePresetShortID: "preset_a", Environment: &api.RunEnvironment{ApplicationBuildShortID: "build_a"}}}}, apps: []string{"app_a"}, unshown: "its device or its build"},
		"parameters and notifications": {req: api.StartRunRequest{Parameters: &api.RunParameters{}, Notifications: []api.Notification{{Type: "none"}}},
			unshown: "its parameters or its notifications"},
	} {
		like := RunLikeStart(tc.req)
		if !sameApps(tc.apps, like.Apps) || len(tc.apps) != len(like.Apps) || like.Tests != tc.tests || like.Unshown != tc.unshown {
			t.Errorf("%s: %+v", name, like)
		}
	}
}

func TestSameApps(t *testing.T) {
	for _, tc := range []struct {
		want, got []string
		same      bool
	}{
		{nil, []string{"app_x"}, true}, // none named: the service's choice
		{[]string{"app_mine"}, []string{"app_mine"}, true},
		{[]string{"app_a", "app_b"}, []string{"app_b", "app_a"}, true},
		{[]string{"app_mine"}, []string{"app_other"}, false},
		{[]string{"app_mine"}, []string{"app_mine", "app_other"}, false},
		{[]string{"app_mine", "app_other"}, []string{"app_mine"}, false},
		{[]string{"app_mine"}, nil, false},
	} {
		if got := sameApps(tc.want, tc.got); got != tc.same {
			t.Errorf("sameApps(%q, %q) = %v", tc.want, tc.got, got)
		}
	}
}

// findRuns keeps the runs that agree with all the list shows, and marks
// unsure those it cannot tell from another job's.
func TestFindRunsAgreesOnAllTheListShows(t *testing.T) {
	list := `{"runs":[
	 {"shortId":"r-mine","trigger":"API","commitHash":"c1","testPlanShortId":"pln_a","applicationShortIds":["app_mine"],"totalCount":5},
	 {"shortId":"r-other-app","trigger":"API","commitHash":"c1","testPlanShortId":"pln_a","applicationShortIds":["app_other"],"totalCount":5},
	 {"shortId":"r-no-apps","trigger":"API","commitHash":"c1","testPlanShortId":"pln_a","applicationShortIds":[],"totalCount":5},
	 {"shortId":"r-other-commit","trigger":"API","commitHash":"c2","testPlanShortId":"pln_a","applicationShortIds":["app_mine"],"totalCount":5},
	 {"shortId":"t-1","trigger":"API","commitHash":"c1","testPlanShortId":null,"applicationShortIds":["app_mine"],"totalCount":1},
	 {"shortId":"t-2","trigger":"API","commitHash":"c1","testPlanShortId":null,"applicationShortIds":["app_mine"],"totalCount":2},
	 {"shortId":"t-40","trigger":"API","commitHash":"c1","testPlanShortId":null,"applicationShortIds":["app_mine"],"totalCount":40},
	 {"shortId":"t-0","trigger":"API","commitHash":"c1","testPlanShortId":null,"applicationShortIds":["app_mine"],"totalCount":0}
	],"total":8,"limit":100,"offset":0}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, list)
	}))
	defer srv.Close()
	c := &api.Client{BaseURL: srv.URL, APIKey: "k", HTTPClient: srv.Client()}
	for name, tc := range map[string]struct {
		like RunLike
		want map[string]string // id: Unsure
	}{
		// A run listed with no plan may be a run of test case ids, or this
		// plan's with its plan left out: it is named, not skipped.
		"plan, any app": {RunLike{Plan: "pln_a", Commit: "c1"}, map[string]string{"r-mine": "", "r-other-app": "", "r-no-apps": "",
			"t-1": "its test plan", "t-2": "its test plan", "t-40": "its test plan", "t-0": "its test plan"}},
		"plan, app_mine": {RunLike{Plan: "pln_a", Commit: "c1", Apps: []string{"app_mine"}}, map[string]string{"r-mine": "", "r-no-apps": "its applications",
			"t-1": "its test plan", "t-2": "its test plan", "t-40": "its test plan", "t-0": "its test plan"}},
		"overrides": {RunLike{Plan: "pln_a", Commit: "c1", Apps: []string{"app_mine"}, Unshown: "its environment"}, map[string]string{"r-mine": "its environment", "r-no-apps": "its environment",
			"t-1": "its environment", "t-2": "its environment", "t-40": "its environment", "t-0": "its environment"}},
		"2 test cases": {RunLike{Commit: "c1", Tests: 2}, map[string]string{"t-2": "", "t-40": "whether its 40 tests are the 2 test cases asked for and their dependencies",
			"t-0": "its test count"}},
	} {
		found, err := findRuns(context.Background(), c, tc.like)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range found {
			got[f.ID] = f.Unsure
		}
		if !maps.Equal(got, tc.want) {
			t.Errorf("%s: found %q, want %q", name, got, tc.want)
		}
	}
}

// A field the list leaves out (null or absent) is unknown, not another
// value: the run is named, never skipped, as skipping it would send the
// request again beside it. Only a field shown with another value rules a
// run out; a trigger shown empty is one left out, as the model cannot tell.
func TestFindRunsNamesARunTheListShowsWithoutAField(t *testing.T) {
	list := `{"runs":[
	 {"shortId":"r-all","trigger":"API","branch":"main","commitHash":"c1","testPlanShortId":"pln_a"},
	 {"shortId":"r-null-branch","trigger":"API","branch":null,"commitHash":"c1","testPlanShortId":"pln_a"},
	 {"shortId":"r-no-commit","trigger":"API","branch":"main","testPlanShortId":"pln_a"},
	 {"shortId":"r-no-trigger","branch":"main","commitHash":"c1","testPlanShortId":"pln_a"},
	 {"shortId":"r-empty-trigger","trigger":"","branch":"main","commitHash":"c1","testPlanShortId":"pln_a"},
	 {"shortId":"r-null-plan","trigger":"API","branch":"main","commitHash":"c1","testPlanShortId":null},
	 {"shortId":"r-bare"},
	 {"shortId":"r-empty-commit","trigger":"API","branch":"main","commitHash":"","testPlanShortId":"pln_a"},
	 {"shortId":"r-other-branch","trigger":"API","branch":"dev","testPlanShortId":"pln_a"},
	 {"shortId":"r-codehost","trigger":"CODEHOST","branch":"main","commitHash":"c1"},
	 {"shortId":"t-ids","trigger":"API","branch":null,"commitHash":null,"testPlanShortId":null}
	],"total":11,"limit":100,"offset":0}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, list)
	}))
	defer srv.Close()
	c := &api.Client{BaseURL: srv.URL, APIKey: "k", HTTPClient: srv.Client()}
	for name, tc := range map[string]struct {
		like RunLike
		want map[string]string // id: Unsure
	}{
		"plan, branch and commit": {RunLike{Plan: "pln_a", Branch: "main", Commit: "c1"}, map[string]string{
			"r-all": "", "r-null-branch": "its branch", "r-no-commit": "its commit", "r-no-trigger": "its trigger",
			"r-empty-trigger": "its trigger", "r-null-plan": "its test plan",
			"r-bare": "its test plan, its trigger, its branch or its commit", "t-ids": "its test plan, its branch or its commit"}},
		// What the request leaves unset agrees with a field left out.
		"test case ids": {RunLike{}, map[string]string{"t-ids": "", "r-bare": "its trigger"}},
		"overrides too": {RunLike{Plan: "pln_a", Branch: "main", Commit: "c1", Unshown: "its environment"}, map[string]string{
			"r-all": "its environment", "r-null-branch": "its environment", "r-no-commit": "its environment", "r-no-trigger": "its environment",
			"r-empty-trigger": "its environment", "r-null-plan": "its environment", "r-bare": "its environment", "t-ids": "its environment"}},
	} {
		found, err := findRuns(context.Background(), c, tc.like)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range found {
			got[f.ID] = f.Unsure
		}
		if !maps.Equal(got, tc.want) {
			t.Errorf("%s: found %q, want %q", name, got, tc.want)
		}
	}
}

// A rerun's expected values are the original's as the list shows it: one
// the list left out of the original is unknown, not "". A new run that
// shows a value for it is named, never skipped (that would send the rerun
// again beside it); one listed without it, like the original, agrees. Its
// trigger, which every run has, is unknown whatever the new run shows.
func TestRerunOfARunListedWithoutAField(t *testing.T) {
	list := `{"runs":[
	 {"shortId":"r-new","trigger":"CODEHOST","branch":"main","commitHash":"c1","testPlanShortId":"pln_a"},
	 {"shortId":"r-new-null","trigger":"CODEHOST","branch":null,"commitHash":null,"testPlanShortId":null},
	 {"shortId":"r-other-commit","trigger":"CODEHOST","branch":"main","commitHash":"c2","testPlanShortId":"pln_a"},
	 {"shortId":"r-orig-branch","trigger":"CODEHOST","commitHash":"c1","testPlanShortId":"pln_a"},
	 {"shortId":"r-orig-trigger","branch":"main","commitHash":"c1","testPlanShortId":"pln_a"},
	 {"shortId":"r-orig-plan","trigger":"CODEHOST","branch":"main","commitHash":"c1","testPlanShortId":null},
	 {"shortId":"r-orig-all"}
	],"total":7,"limit":100,"offset":0}`
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, list)
	}))
	defer srv.Close()
	c := &api.Client{BaseURL: srv.URL, APIKey: "k", HTTPClient: srv.Client()}
	for orig, want := range map[string]map[string]string{
		"r-orig-branch": {"r-new": "the original's branch", "r-new-null": "its test plan or its commit", "r-orig-branch": "",
			"r-orig-trigger": "its trigger or the original's branch", "r-orig-plan": "its test plan or the original's branch",
			"r-orig-all": "its test plan, its trigger or its commit"},
		"r-orig-trigger": {"r-new": "the original's trigger", "r-new-null": "its test plan, the original's trigger, its branch or its commit",
			"r-orig-branch": "the original's trigger or its branch", "r-orig-trigger": "the original's trigger",
			"r-orig-plan": "its test plan or the original's trigger", "r-orig-all": "its test plan, the original's trigger, its branch or its commit"},
		"r-orig-plan": {"r-new": "the original's test plan", "r-new-null": "its branch or its commit",
			"r-orig-branch": "the original's test plan or its branch", "r-orig-trigger": "the original's test plan or its trigger",
			"r-orig-plan": "", "r-orig-all": "its trigger, its branch or its commit"},
		"r-orig-all": {"r-new": "the original's test plan, the original's trigger, the original's branch or the original's commit",
			"r-new-null": "the original's trigger", "r-other-commit": "the original's test plan, the original's trigger, the original's branch or the original's commit",
			"r-orig-branch":  "the original's test plan, the original's trigger or the original's commit",
			"r-orig-trigger": "the original's test plan, the original's trigger, the original's branch or the original's commit",
			"r-orig-plan":    "the original's trigger, the original's branch or the original's commit", "r-orig-all": "the original's trigger"},
	} {
		like, err := likeRun(context.Background(), c, orig)
		if err != nil {
			t.Fatal(err)
		}
		queries = nil
		found, err := findRuns(context.Background(), c, like)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range found {
			got[f.ID] = f.Unsure
		}
		if !maps.Equal(got, want) {
			t.Errorf("rerun of %s: found %q, want %q", orig, got, want)
		}
		if strings.Contains(queries[0], "trigger=API") {
			t.Errorf("rerun of %s: filtered on the default trigger: %s", orig, queries[0])
		}
	}
}
