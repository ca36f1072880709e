package sandbox

import (
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

// The baseline of --baseline main: the newest run of PlanBaseline on main
// failed the coupon and passed the card.
func TestBaselineHistory(t *testing.T) {
	s, _ := newSandbox(t, Options{Seed: 7, BaselineHistory: true})
	list := listRuns(t, s, "?branch=main&testPlanShortId="+PlanBaseline)
	if len(list.Runs) != 2 || list.Runs[0].CreatedAt <= list.Runs[1].CreatedAt {
		t.Fatalf("runs of the plan on main, newest first: %+v", list.Runs)
	}
	newest := list.Runs[0]
	if newest.Status != api.StatusCompleted || *newest.Branch != "main" || newest.FailedCount != 1 {
		t.Errorf("newest: %+v", newest)
	}
	d := getRun(t, s, newest.ShortID, "?testCases=all")
	outcomes := map[string]string{}
	for _, tc := range d.RunTestCases {
		outcomes[tc.Name] = tc.Result
	}
	if outcomes["Apply an expired coupon"] != api.ResultFailed || outcomes["Pay with a declined card"] != api.ResultPassed {
		t.Errorf("baseline outcomes: %v", outcomes)
	}
	if all := listRuns(t, s, "?limit=100"); all.Total != DefaultHistory+2 {
		t.Errorf("the run list has %d runs, want the history and the 2 baseline runs", all.Total)
	}
	// Without the option the run list is the history alone.
	plain, _ := newSandbox(t, Options{Seed: 7})
	if l := listRuns(t, plain, "?branch=main&testPlanShortId="+PlanBaseline); len(l.Runs) != 0 {
		t.Errorf("without BaselineHistory: %+v", l.Runs)
	}
}
