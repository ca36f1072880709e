package sandbox

import (
	"net/http"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

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
