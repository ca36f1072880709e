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
