package sandbox

import (
	"net/http"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

type testCaseList struct {
	TestCases []testCaseItem `json:"testCases"`
	Total     int32          `json:"total"`
	Limit     int32          `json:"limit"`
	Offset    int32          `json:"offset"`
}

func listTestCases(t *testing.T, s *Server, query string) testCaseList {
	t.Helper()
	return decode[testCaseList](t, send(t, s, "GET", "/v1/test-cases"+query, ProjectKey, nil), http.StatusOK)
}

func TestListTestCases(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	all := listTestCases(t, s, "")
	if all.Total != 10 || all.Limit != 20 || len(all.TestCases) != 10 {
		t.Fatalf("list: total %d limit %d len %d", all.Total, all.Limit, len(all.TestCases))
	}
	for _, tc := range all.TestCases {
		if !uuidPattern().MatchString(tc.ID) || tc.Name == "" || tc.ApplicationShortID != appWebID ||
			tc.ApplicationName != appWebName || tc.Goal == "" || tc.CreatedAt == "" || tc.Classification == "" ||
			len(tc.Labels) == 0 || tc.GenerationStatus != api.GenerationCompleted {
			t.Errorf("item %+v", tc)
		}
	}
	if all.TestCases[0].LastRun == nil || all.TestCases[0].LastRun.Status != api.StatusCompleted {
		t.Errorf("login has no last run from history: %+v", all.TestCases[0].LastRun)
	}
	names := func(l testCaseList) string {
		var out []string
		for _, tc := range l.TestCases {
			out = append(out, tc.Name)
		}
		return strings.Join(out, "|")
	}
	if l := listTestCases(t, s, "?labels=smoke"); l.Total != 5 {
		t.Errorf("smoke: %s", names(l))
	}
	if l := listTestCases(t, s, "?labels=email,account"); l.Total != 3 {
		t.Errorf("labels match any: %s", names(l))
	}
	if l := listTestCases(t, s, "?labels=email&labels=account"); l.Total != 3 {
		t.Errorf("repeated labels: %s", names(l))
	}
	if l := listTestCases(t, s, "?isEnabled=false"); l.Total != 1 || l.TestCases[0].ID != TestCaseProfilePhoto {
		t.Errorf("disabled: %s", names(l))
	}
	if l := listTestCases(t, s, "?isEnabled=true&labels=checkout&applicationShortId=app_sandbox-web"); l.Total != 4 {
		t.Errorf("combined: %s", names(l))
	}
	if l := listTestCases(t, s, "?limit=3&offset=9"); l.Total != 10 || len(l.TestCases) != 1 || l.Offset != 9 {
		t.Errorf("paging: %+v", l)
	}
	wantError(t, send(t, s, "GET", "/v1/test-cases?applicationShortId=app_other", ProjectKey, nil), 404, "app_other")
	wantError(t, send(t, s, "GET", "/v1/test-cases?applicationShortId=web", ProjectKey, nil), 400, "app_")
	wantError(t, send(t, s, "GET", "/v1/test-cases?isEnabled=1", ProjectKey, nil), 400, "isEnabled")
	wantError(t, send(t, s, "GET", "/v1/test-cases?limit=101", ProjectKey, nil), 400, "limit")
	wantError(t, send(t, s, "GET", "/v1/test-cases?offset=-2", ProjectKey, nil), 400, "offset")
}

func TestCreateTestCaseValidation(t *testing.T) {
	body := func(edit func(m map[string]any)) map[string]any {
		m := map[string]any{"name": "Buy a gift card", "goal": "Buy a $10 gift card", "applicationShortId": appWebID}
		edit(m)
		return m
	}
	cases := []struct {
		name      string
		body      any
		status    int
		fragments []string
	}{
		{"malformed", `{"name":`, 400, []string{"malformed JSON"}},
		{"unknown field", body(func(m map[string]any) { m["title"] = "x" }), 400, []string{`"title"`}},
		{"wrong type", body(func(m map[string]any) { m["name"] = 5 }), 400, []string{"name", "string"}},
		{"no name", body(func(m map[string]any) { delete(m, "name") }), 400, []string{"name", "1 to 80"}},
		{"blank name", body(func(m map[string]any) { m["name"] = "   " }), 400, []string{"name"}},
		{"long name", body(func(m map[string]any) { m["name"] = strings.Repeat("é", 81) }), 400, []string{"81 characters", "80"}},
		{"no goal", body(func(m map[string]any) { delete(m, "goal") }), 400, []string{"goal"}},
		{"no app", body(func(m map[string]any) { delete(m, "applicationShortId") }), 400, []string{"applicationShortId"}},
		{"app prefix", body(func(m map[string]any) { m["applicationShortId"] = "web" }), 400, []string{"app_"}},
		{"unknown app", body(func(m map[string]any) { m["applicationShortId"] = "app_mobile" }), 404, []string{"app_mobile"}},
		{"scenario prefix", body(func(m map[string]any) { m["scenarioShortId"] = "checkout" }), 400, []string{"scenario_"}},
		{"unknown scenario", body(func(m map[string]any) { m["scenarioShortId"] = "scenario_nope" }), 404, []string{"scenario_nope"}},
		{"config prefix", body(func(m map[string]any) { m["configShortIds"] = []string{"admin"} }), 400, []string{"cfg_"}},
		{"unknown config", body(func(m map[string]any) { m["configShortIds"] = []string{"cfg_nope"} }), 404, []string{"cfg_nope"}},
		{"resume not UUID", body(func(m map[string]any) { m["resumeFromDependencyProjectTestCaseId"] = "login" }), 400, []string{"UUID"}},
		{"wait not UUID", body(func(m map[string]any) { m["waitForDependenciesProjectTestCaseIds"] = []string{TestCaseLogin, "x"} }), 400, []string{"[1]", "UUID"}},
		{"unknown resume", body(func(m map[string]any) {
			m["resumeFromDependencyProjectTestCaseId"] = "00000000-0000-4000-8000-000000000000"
		}), 404, []string{"00000000-0000-4000-8000-000000000000"}},
		{"unknown wait", body(func(m map[string]any) {
			m["waitForDependenciesProjectTestCaseIds"] = []string{"00000000-0000-4000-8000-00000000000f"}
		}), 404, []string{"00000000-0000-4000-8000-00000000000f"}},
	}
	s, _ := newSandbox(t, Options{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, send(t, s, "POST", "/v1/test-cases", ProjectKey, tc.body), tc.status, tc.fragments...)
		})
	}
	if n := s.Stats().TestCasesCreated; n != 0 {
		t.Errorf("invalid requests created %d test cases", n)
	}
	// 80 characters of any script are fine.
	decode[api.CreateTestCaseResponse](t, send(t, s, "POST", "/v1/test-cases", ProjectKey,
		body(func(m map[string]any) { m["name"] = strings.Repeat("日", 80) })), http.StatusOK)
}

func TestCreatedTestCaseLifecycle(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	req := api.CreateTestCaseRequest{Name: "Confirm after the declined card", Goal: "See the retry page",
		ApplicationShortID: appWebID, ExpectedResult: "A retry page", ConfigShortIDs: []string{configGuestID},
		ScenarioShortID: scenarioID, WaitForDependenciesProjectTestCaseIDs: []string{TestCaseDeclinedCard, TestCaseDeclinedCard}}
	created := decode[api.CreateTestCaseResponse](t, send(t, s, "POST", "/v1/test-cases", ProjectKey, req), http.StatusOK)
	if !uuidPattern().MatchString(created.ID) || created.IsEnabled || created.GenerationStatus != api.GenerationGenerating || created.Name != req.Name {
		t.Fatalf("created %+v", created)
	}
	find := func() testCaseItem {
		for _, tc := range listTestCases(t, s, "?limit=100").TestCases {
			if tc.ID == created.ID {
				return tc
			}
		}
		t.Fatal("created test case not listed")
		return testCaseItem{}
	}
	if tc := find(); tc.GenerationStatus != api.GenerationGenerating || tc.IsEnabled || tc.LastRun != nil ||
		len(tc.WaitFor) != 1 {
		t.Errorf("listed while generating: %+v", tc)
	}
	advance(fake, burnIn-1)
	if tc := find(); tc.GenerationStatus != api.GenerationGenerating {
		t.Errorf("burn-in finished early")
	}
	advance(fake, 1)
	if tc := find(); tc.GenerationStatus != api.GenerationCompleted || tc.IsEnabled {
		t.Errorf("after burn-in: %+v", tc)
	}
	if l := listTestCases(t, s, "?isEnabled=false"); l.Total != 2 {
		t.Errorf("created test case is not among the disabled ones")
	}
	// Its wait-for dependency always fails, so a run of it skips it.
	id := startCases(t, s, created.ID).Run.ShortID
	advance(fake, 30)
	d := getRun(t, s, id, "?testCases=all")
	last := d.RunTestCases[len(d.RunTestCases)-1]
	if len(d.RunTestCases) != 2 || last.Result != api.ResultSkipped || !strings.Contains(last.ResultTitle, "Pay with a declined card") {
		t.Errorf("run of the created test case: %+v", d)
	}
	if tc := find(); tc.LastRun == nil || tc.LastRun.ShortID != id || tc.LastRun.Result != api.ResultSkipped {
		t.Errorf("lastRun %+v", tc.LastRun)
	}
	// Another test case may depend on the created one.
	dep := api.CreateTestCaseRequest{Name: "n", Goal: "g", ApplicationShortID: appWebID, ResumeFromDependencyProjectTestCaseID: created.ID}
	decode[api.CreateTestCaseResponse](t, send(t, s, "POST", "/v1/test-cases", ProjectKey, dep), http.StatusOK)
	if n := s.Stats().TestCasesCreated; n != 2 {
		t.Errorf("TestCasesCreated %d", n)
	}
}
