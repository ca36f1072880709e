package runwait

import (
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/verdict"
)

func strp(s string) *string { return &s }

func TestObserveReportsEachChangeOnce(t *testing.T) {
	s := newRunState(RunTarget{ShortID: "r1"}, time.Time{})
	d := &api.RunDetail{ShortID: "r1", Status: api.StatusRunning, RunTestCases: []api.RunTestCase{
		{ShortID: "r1-0", Status: api.StatusCompleted, Result: api.ResultPassed},
		{ShortID: "r1-1", Status: api.StatusRunning},
	}}
	changed, fin := s.observe(d)
	if !changed || len(fin) != 1 || fin[0].ShortID != "r1-0" {
		t.Fatalf("first observe: changed=%v finished=%v", changed, fin)
	}
	changed, fin = s.observe(d)
	if changed || len(fin) != 0 {
		t.Fatalf("same answer again: changed=%v finished=%v", changed, fin)
	}
	d2 := *d
	d2.RunTestCases = []api.RunTestCase{d.RunTestCases[0], {ShortID: "r1-1", Status: api.StatusError}}
	changed, fin = s.observe(&d2)
	if changed || len(fin) != 1 || fin[0].ShortID != "r1-1" {
		t.Fatalf("case finished: changed=%v finished=%v", changed, fin)
	}
}

// The views mark a run as the summary will: a quarantine whose date has
// passed fails the run while the wait shows it, not only at the end.
func TestTheViewsVerdictKnowsTheDate(t *testing.T) {
	today := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	s := newRunState(RunTarget{ShortID: "r1"}, today)
	s.vo = verdict.Options{Quarantine: []verdict.Quarantine{{Name: "Pay", Until: today.AddDate(0, 0, -1)}}}
	s.now = func() time.Time { return today }
	s.observe(&api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-1", Name: "Pay", Status: api.StatusCompleted, Result: api.ResultFailed}}})
	if v := s.verdict(); v.Code != exitcode.Failed {
		t.Errorf("the views' verdict: exit %d, want 1: the quarantine of Pay ended yesterday", v.Code)
	}
}
