package sandbox

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

func TestStartRunResponse(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	got := startPlan(t, s, PlanPassing)
	r := got.Run
	if !got.Success || len(r.ShortID) != 6 || r.ID == "" || r.TestCount != 5 ||
		r.URL != "https://app.sandbox.testctl.invalid/runs/"+r.ShortID {
		t.Errorf("start response %+v", got)
	}
	if r.TestPlan == nil || r.TestPlan.ShortID != PlanPassing || r.TestPlan.Name == "" {
		t.Errorf("testPlan %+v", r.TestPlan)
	}
	// A run of test case ids has no plan, and pulls in its dependencies.
	byID := startCases(t, s, TestCaseOrderEmail)
	if byID.Run.TestPlan != nil || byID.Run.TestCount != 5 || byID.Run.ShortID == r.ShortID {
		t.Errorf("test case run %+v", byID.Run)
	}
	if n := s.Stats().RunsStarted; n != 2 {
		t.Errorf("RunsStarted %d", n)
	}
}

func TestStartRunValidation(t *testing.T) {
	codehost := func(edit func(*api.StartRunRequest)) api.StartRunRequest {
		r := api.StartRunRequest{TestPlanShortID: PlanPassing, Trigger: "CODEHOST", Actor: "octo", Branch: "main",
			CommitHash: "abc123", CommitMessage: "Fix", Repository: "org/repo"}
		if edit != nil {
			edit(&r)
		}
		return r
	}
	plan := func(edit func(*api.StartRunRequest)) api.StartRunRequest {
		r := api.StartRunRequest{TestPlanShortID: PlanPassing}
		edit(&r)
		return r
	}
	// web is a request of the passing plan on the web application, edited.
	web := func(edit func(*api.RunApplication)) api.StartRunRequest {
		return plan(func(r *api.StartRunRequest) {
			a := api.RunApplication{ApplicationShortID: appWebID}
			edit(&a)
			r.Applications = []api.RunApplication{a}
		})
	}
	yes := true
	cases := []struct {
		name      string
		body      any
		status    int
		fragments []string
	}{
		{"malformed JSON", `{"testPlanShortId":`, 400, []string{"malformed JSON"}},
		{"syntax error", `{"testPlanShortId" "x"}`, 400, []string{"malformed JSON"}},
		{"empty body", ``, 400, []string{"body is required"}},
		{"not an object", `[1]`, 400, []string{"JSON object"}},
		{"trailing data", `{"testPlanShortId":"pln-passing_sandbox"} {}`, 400, []string{"after the JSON object"}},
		{"unknown field", `{"testPlanId":"pln-passing_sandbox"}`, 400, []string{`"testPlanId"`}},
		{"wrong type", `{"testPlanShortId":42}`, 400, []string{"testPlanShortId", "string"}},
		{"wrong array type", `{"testCaseIds":"5a4db001-0000-4000-8000-000000000001"}`, 400, []string{"testCaseIds"}},
		{"neither plan nor ids", api.StartRunRequest{Trigger: "API"}, 400, []string{"testPlanShortId", "testCaseIds"}},
		{"both plan and ids", plan(func(r *api.StartRunRequest) { r.TestCaseIDs = []string{TestCaseLogin} }), 400, []string{"not both"}},
		{"empty ids", `{"testCaseIds":[]}`, 400, []string{"testCaseIds", "empty"}},
		{"plan pattern", plan(func(r *api.StartRunRequest) { r.TestPlanShortID = "plan-1" }), 400, []string{"plan-1", "pln_"}},
		{"plan pattern slug", plan(func(r *api.StartRunRequest) { r.TestPlanShortID = "pln-nounderscore" }), 400, []string{"pln-nounderscore"}},
		{"unknown plan", plan(func(r *api.StartRunRequest) { r.TestPlanShortID = "pln_nope" }), 404, []string{"pln_nope"}},
		{"id not a UUID", api.StartRunRequest{TestCaseIDs: []string{"tc_1"}}, 400, []string{"testCaseIds[0]", "UUID"}},
		{"unknown id", api.StartRunRequest{TestCaseIDs: []string{"00000000-0000-4000-8000-000000000000"}}, 404, []string{"00000000-0000-4000-8000-000000000000"}},
		{"bad trigger", plan(func(r *api.StartRunRequest) { r.Trigger = "WEBHOOK" }), 400, []string{"API or CODEHOST"}},
		{"codehost missing", codehost(func(r *api.StartRunRequest) { r.Branch, r.CommitHash = "", "" }), 400,
			[]string{"CODEHOST", "missing: branch, commitHash"}},
		{"codehost nothing", plan(func(r *api.StartRunRequest) { r.Trigger = "CODEHOST" }), 400,
			[]string{"actor, branch, commitHash, commitMessage, repository"}},
		{"empty notifications", `{"testPlanShortId":"pln-passing_sandbox","notifications":[]}`, 400, []string{"notifications", "empty", `"none"`}},
		{"notification type", plan(func(r *api.StartRunRequest) { r.Notifications = []api.Notification{{Type: "pager"}} }), 400, []string{"pager"}},
		{"notification no type", `{"testPlanShortId":"pln-passing_sandbox","notifications":[{"channel":"#x"}]}`, 400, []string{"type is required"}},
		{"none with others", plan(func(r *api.StartRunRequest) {
			r.Notifications = []api.Notification{{Type: "none"}, {Type: "email", Channel: "a@b.c"}}
		}), 400, []string{"none"}},
		{"slack without channel", plan(func(r *api.StartRunRequest) { r.Notifications = []api.Notification{{Type: "slack", Enabled: &yes}} }), 400, []string{"channel"}},
		{"app required", plan(func(r *api.StartRunRequest) { r.Applications = []api.RunApplication{{}} }), 400, []string{"applications[0].applicationShortId"}},
		{"app prefix", plan(func(r *api.StartRunRequest) { r.Applications = []api.RunApplication{{ApplicationShortID: "web"}} }), 400, []string{"app_"}},
		{"unknown app", plan(func(r *api.StartRunRequest) { r.Applications = []api.RunApplication{{ApplicationShortID: "app_nope"}} }), 404, []string{"app_nope"}},
		{"preset prefix", web(func(a *api.RunApplication) { a.DevicePresetShortID = "iphone" }), 400, []string{"preset_"}},
		{"unknown preset", web(func(a *api.RunApplication) { a.DevicePresetShortID = "preset_nope" }), 404, []string{"preset_nope"}},
		{"env prefix", web(func(a *api.RunApplication) { a.Environment = &api.RunEnvironment{ShortID: "staging"} }), 400, []string{"env_"}},
		{"unknown env", web(func(a *api.RunApplication) { a.Environment = &api.RunEnvironment{ShortID: "env_prod"} }), 404, []string{"env_prod"}},
		{"build prefix", web(func(a *api.RunApplication) { a.Environment = &api.RunEnvironment{ApplicationBuildShortID: "b1"} }), 400, []string{"build_"}},
		{"env url", web(func(a *api.RunApplication) { a.Environment = &api.RunEnvironment{URL: "localhost:3000"} }), 400, []string{"localhost:3000"}},
		{"configsByEnvironment key", plan(func(r *api.StartRunRequest) {
			r.Parameters = &api.RunParameters{ConfigsByEnvironment: map[string]any{"staging": map[string]any{}}}
		}), 400, []string{"UUID"}},
		{"unknown config", plan(func(r *api.StartRunRequest) {
			r.Parameters = &api.RunParameters{Configs: map[string]any{"cfg_nope": map[string]any{}}}
		}), 404, []string{"cfg_nope"}},
	}
	s, _ := newSandbox(t, Options{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, send(t, s, "POST", "/v1/run", ProjectKey, tc.body), tc.status, tc.fragments...)
		})
	}
	if n := s.Stats().RunsStarted; n != 0 {
		t.Errorf("invalid requests started %d runs", n)
	}

	ok := []any{
		codehost(nil),
		plan(func(r *api.StartRunRequest) {
			r.Trigger = "API"
			r.Notifications = []api.Notification{{Type: "slack", Channel: "#qa", Enabled: &yes}, {Type: "email", NotifyOn: "failure"}}
			r.Applications = []api.RunApplication{{ApplicationShortID: appWebID, DevicePresetShortID: presetMobile,
				Environment: &api.RunEnvironment{ShortID: envStagingID, URL: "https://pr-42.example.com", Name: "PR 42", ApplicationBuildShortID: "build_42"}}}
			r.Parameters = &api.RunParameters{Configs: map[string]any{configAdminID: map[string]any{"user": "x"}, "guest-login": "y"},
				ConfigsByEnvironment: map[string]any{environmentUUID: map[string]any{}}}
		}),
		plan(func(r *api.StartRunRequest) { r.Notifications = []api.Notification{{Type: "none"}} }),
		api.StartRunRequest{TestCaseIDs: []string{strings.ToUpper(TestCaseLogin), TestCaseLogin}},
	}
	for i, body := range ok {
		decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run", ProjectKey, body), http.StatusOK)
		if i == len(ok)-1 {
			if n := s.Stats().RunsStarted; n != len(ok) {
				t.Errorf("RunsStarted %d", n)
			}
		}
	}
	// Duplicate ids run once.
	dup := startCases(t, s, TestCaseLogin, TestCaseLogin)
	if dup.Run.TestCount != 1 {
		t.Errorf("duplicate ids: testCount %d", dup.Run.TestCount)
	}
	// The content type is checked when it is given.
	r := newRequest("POST", "/v1/run", "Bearer "+ProjectKey)
	r.Header.Set("Content-Type", "text/plain")
	wantError(t, serve(s, r), http.StatusUnsupportedMediaType, "application/json")
}

func TestGetRunShapes(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	id := startPlan(t, s, PlanFailing).Run.ShortID

	// Without testCases the list is empty; issues only when asked.
	rec := send(t, s, "GET", "/v1/run/"+id, ProjectKey, nil)
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw["runTestCases"]) != "[]" || string(raw["result"]) != "null" {
		t.Errorf("bare detail %s", rec.Body)
	}
	if _, ok := raw["issues"]; ok {
		t.Errorf("issues present without being asked: %s", rec.Body)
	}
	if body := send(t, s, "GET", "/v1/run/"+id+"?issues=true", ProjectKey, nil).Body.String(); !strings.Contains(body, `"issues":[]`) {
		t.Errorf("issues=true before any issue should give [], got %s", body)
	}

	advance(fake, 12)
	all := getRun(t, s, id, "?testCases=all&issues=true")
	if all.Status != api.StatusCompleted || result(all) != api.ResultFailed || len(all.RunTestCases) != 7 {
		t.Fatalf("detail %+v", all)
	}
	for _, c := range all.RunTestCases {
		if c.ID == "" || !strings.HasPrefix(c.ShortID, id+"-") || c.Name == "" || c.PromptGoal == "" || c.ResultTitle == "" {
			t.Errorf("run test case %+v", c)
		}
	}
	failed := getRun(t, s, id, "?testCases=failed")
	if len(failed.RunTestCases) != 3 {
		t.Errorf("testCases=failed gave %d, want 2 failed + 1 skipped", len(failed.RunTestCases))
	}
	for _, c := range failed.RunTestCases {
		if c.Result == api.ResultPassed {
			t.Errorf("passed case in failed view: %+v", c)
		}
		if c.Result == api.ResultFailed && (len(c.ResultTitle) < 20 || len(c.EvaluationThought) < 40) {
			t.Errorf("failing case without a meaningful explanation: %+v", c)
		}
	}
	// Issues are deduplicated: the recommendations issue was seen twice.
	seen := map[string]int{}
	for _, is := range all.Issues {
		seen[is.Title]++
		if is.ID == "" || is.Severity == "" || is.HelpURL == "" || len(is.TestCases) == 0 || is.Tags == nil {
			t.Errorf("issue %+v", is)
		}
		if is.Title == issueCatalogue["recommendations-500"].Title && len(is.TestCases) != 2 {
			t.Errorf("shared issue lists %d test cases", len(is.TestCases))
		}
	}
	if len(all.Issues) != 3 || seen[issueCatalogue["recommendations-500"].Title] != 1 {
		t.Errorf("issues %+v", all.Issues)
	}
	if d := getRun(t, s, id, "?issues=false"); d.Issues != nil {
		t.Errorf("issues=false gave issues")
	}

	wantError(t, send(t, s, "GET", "/v1/run/"+id+"?testCases=some", ProjectKey, nil), 400, "testCases", "all, failed")
	wantError(t, send(t, s, "GET", "/v1/run/"+id+"?issues=yes", ProjectKey, nil), 400, "issues", "true or false")
	wantError(t, send(t, s, "GET", "/v1/run/zzzzzz", ProjectKey, nil), 404, "zzzzzz")
	wantError(t, send(t, s, "GET", "/v1/run/r00000", ProjectKey, nil), 404)
}

func TestRerun(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	orig := startPlan(t, s, PlanFailing).Run.ShortID
	wantError(t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, nil), 400, "still", "once it has finished")
	wantError(t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, map[string]any{"failedOnly": true}), 400, "still")
	advance(fake, 20)
	before := getRun(t, s, orig, "?testCases=all")

	same := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, nil), 200)
	if same.Run.ShortID == orig || same.Run.TestPlan == nil || same.Run.TestPlan.ShortID != PlanFailing || same.Run.TestCount != 7 {
		t.Errorf("rerun %+v", same.Run)
	}
	failedOnly := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, map[string]any{"failedOnly": true}), 200)
	if failedOnly.Run.TestCount != 2 || failedOnly.Run.TestPlan == nil || failedOnly.Run.TestPlan.ShortID != PlanFailing {
		t.Errorf("failedOnly rerun %+v", failedOnly.Run)
	}
	picked := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey,
		map[string]any{"projectTestCaseIds": []string{TestCaseLogin}}), 200)
	if picked.Run.TestCount != 1 {
		t.Errorf("projectTestCaseIds rerun %+v", picked.Run)
	}
	advance(fake, 20)
	// The failing plan's failures are real: rerun, they fail again.
	if d := getRun(t, s, failedOnly.Run.ShortID, "?testCases=all"); d.Status != api.StatusCompleted || result(d) != api.ResultFailed ||
		len(d.RunTestCases) != 2 || d.RunTestCases[0].Name != fixtureByID(TestCaseExpiredCoupon).Name {
		t.Errorf("rerun of the failing plan's failures: %s %s %+v", d.Status, result(d), d.RunTestCases)
	}
	if after := getRun(t, s, orig, "?testCases=all"); !reflect.DeepEqual(after, before) {
		t.Errorf("the original changed:\n%+v\n%+v", before, after)
	}

	passing := startPlan(t, s, PlanPassing).Run.ShortID
	advance(fake, 20)
	wantError(t, send(t, s, "POST", "/v1/run/"+passing, ProjectKey, map[string]any{"failedOnly": true}), 400, "no failed")
	wantError(t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, map[string]any{"failedOnly": true, "projectTestCaseIds": []string{TestCaseLogin}}), 400, "not both")
	wantError(t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, map[string]any{"projectTestCaseIds": []string{"x"}}), 400, "UUID")
	wantError(t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, map[string]any{"projectTestCaseIds": []string{}}), 400, "empty")
	wantError(t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, map[string]any{"projectTestCaseIds": []string{TestCaseHealthAPI}}), 400,
		TestCaseHealthAPI, "not in run "+orig)
	wantError(t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, map[string]any{"bogus": 1}), 400, "bogus")
	wantError(t, send(t, s, "POST", "/v1/run/rzzzzz", ProjectKey, nil), 404, "rzzzzz")
	wantError(t, send(t, s, "POST", "/v1/run/"+orig, LimitKey, nil), 402)
	if st := s.Stats(); st.RunsStarted != 5 || st.Reruns != 3 {
		t.Errorf("RunsStarted %d and Reruns %d, want 5 and 3", st.RunsStarted, st.Reruns)
	}
}

// A rerun is the same run again: the list shows it with the original's
// plan, trigger, branch and commit, which is how a client finds a rerun
// whose answer was lost.
func TestRerunKeepsWhatTheRunWasStartedWith(t *testing.T) {
	s, fake := newSandbox(t, Options{History: -1})
	orig := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run", ProjectKey, api.StartRunRequest{
		TestPlanShortID: PlanFlaky, Trigger: api.TriggerCodehost, Actor: "ci", Branch: "main", CommitHash: "abc123",
		CommitMessage: "m", Repository: "r"}), 200).Run.ShortID
	advance(fake, 20)
	rerun := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run/"+orig, ProjectKey, map[string]any{"failedOnly": true}), 200).Run.ShortID
	list := decode[api.RunList](t, send(t, s, "GET", "/v1/run", ProjectKey, nil), 200)
	if len(list.Runs) != 2 || list.Runs[0].ShortID != rerun || list.Runs[1].ShortID != orig {
		t.Fatalf("list %+v", list.Runs)
	}
	for _, r := range list.Runs {
		if r.Trigger != api.TriggerCodehost || deref(r.Branch) != "main" || deref(r.CommitHash) != "abc123" ||
			deref(r.TestPlanShortID) != PlanFlaky || r.URL != runURL(r.ShortID) || r.CreatedAt == "" {
			t.Errorf("list item %+v", r)
		}
	}
	if list.Runs[0].CreatedAt != epoch.Add(20*time.Second).Format(time.RFC3339) {
		t.Errorf("rerun createdAt %s", list.Runs[0].CreatedAt)
	}
}

// pln-flaky_sandbox fails with two failed test cases that pass when rerun.
func TestFlakyPlan(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	orig := startPlan(t, s, PlanFlaky)
	if orig.Run.TestCount != 5 || orig.Run.TestPlan.ShortID != PlanFlaky {
		t.Fatalf("start %+v", orig.Run)
	}
	advance(fake, 10)
	d := getRun(t, s, orig.Run.ShortID, "?testCases=failed")
	if d.Status != api.StatusCompleted || result(d) != api.ResultFailed || len(d.RunTestCases) != 2 {
		t.Fatalf("flaky run ended %s %s with failed %+v", d.Status, result(d), d.RunTestCases)
	}
	rerun := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run/"+orig.Run.ShortID, ProjectKey, map[string]any{"failedOnly": true}), 200)
	if rerun.Run.TestCount != 2 {
		t.Errorf("rerun of the failed test cases runs %d", rerun.Run.TestCount)
	}
	advance(fake, 10)
	again := getRun(t, s, rerun.Run.ShortID, "?testCases=all")
	if again.Status != api.StatusCompleted || result(again) != api.ResultPassed || len(again.RunTestCases) != 2 {
		t.Fatalf("rerun ended %s %s", again.Status, result(again))
	}
	for i, rtc := range again.RunTestCases {
		if rtc.Name != d.RunTestCases[i].Name || rtc.Result != api.ResultPassed {
			t.Errorf("rerun test case %d: %s %s, failed first: %s", i, rtc.Name, rtc.Result, d.RunTestCases[i].Name)
		}
	}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Every plan can be rerun once it has finished, whole or, where something
// failed or errored, just those test cases.
func TestRerunEveryPlan(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	for _, p := range fixturePlans {
		orig := startPlan(t, s, p.ShortID).Run
		advance(fake, 3600)
		whole := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run/"+orig.ShortID, ProjectKey, nil), 200).Run
		if whole.TestCount != orig.TestCount || whole.TestPlan == nil || whole.TestPlan.ShortID != p.ShortID {
			t.Errorf("%s: whole rerun %+v of %+v", p.ShortID, whole, orig)
		}
		failed := 0
		for _, c := range p.Cases {
			if c.result == api.ResultFailed || c.status == api.StatusError {
				failed++
			}
		}
		rec := send(t, s, "POST", "/v1/run/"+orig.ShortID, ProjectKey, map[string]any{"failedOnly": true})
		if failed == 0 {
			wantError(t, rec, 400, "no failed test cases")
			continue
		}
		if got := decode[api.StartRunResponse](t, rec, 200).Run; got.TestCount < failed {
			t.Errorf("%s: failedOnly rerun runs %d test cases, %d failed", p.ShortID, got.TestCount, failed)
		}
	}
}

func TestFailingTestCasesOption(t *testing.T) {
	plain, _ := newSandbox(t, Options{})
	wantError(t, send(t, plain, "POST", "/v1/run", ProjectKey, map[string]any{"testPlanShortId": PlanRegressions}), http.StatusNotFound, PlanRegressions)

	s, fake := newSandbox(t, Options{FailingTestCases: 10})
	started := startPlan(t, s, PlanRegressions)
	if started.Run.TestCount != 10 || started.Run.TestPlan == nil || started.Run.TestPlan.Name != "Regressions (10 failing)" {
		t.Fatalf("start %+v", started.Run)
	}
	advance(fake, 60)
	run := getRun(t, s, started.Run.ShortID, "?testCases=failed&issues=true")
	if result(run) != api.ResultFailed || len(run.RunTestCases) != 10 || len(run.Issues) != 1 || len(run.Issues[0].TestCases) != 10 {
		t.Fatalf("run: %s, %d failed, issues %+v", result(run), len(run.RunTestCases), run.Issues)
	}
	names := map[string]bool{}
	for _, c := range run.RunTestCases {
		names[c.Name] = true
		if !strings.Contains(c.EvaluationThought, "POST /api/payments returned 502") {
			t.Errorf("%s: %s", c.Name, c.EvaluationThought)
		}
	}
	if len(names) != 10 || !names["Regression 01: pay with a declined card"] {
		t.Errorf("names %v", names)
	}
	if err := evidenceOf["Pay with a declined card"].logs(logsOf{t, s, run.RunTestCases[9].ShortID}); err != nil {
		t.Error(err)
	}
	// They are the project's test cases: listed, and a rerun of the
	// failed ones runs them again.
	list := decode[api.TestCaseList](t, send(t, s, "GET", "/v1/test-cases?labels=benchmark&limit=100", ProjectKey, nil), http.StatusOK)
	if list.Total != 10 {
		t.Errorf("%d regression test cases listed", list.Total)
	}
	rerun := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run/"+run.ShortID, ProjectKey, map[string]any{"failedOnly": true}), http.StatusOK)
	if rerun.Run.TestCount != 10 {
		t.Errorf("rerun of %d test cases", rerun.Run.TestCount)
	}
}
