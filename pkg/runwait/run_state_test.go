package runwait

import (
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
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
