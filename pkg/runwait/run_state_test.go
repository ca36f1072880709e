package runwait

import (
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
)

func strp(s string) *string { return &s }

func TestVerdictCodes(t *testing.T) {
	cases := []struct {
		status  string
		result  *string
		failOnS bool
		want    int
	}{
		{api.StatusCompleted, strp(api.ResultPassed), false, 0},
		{api.StatusCompleted, strp(api.ResultSkipped), false, 0},
		{api.StatusCompleted, strp(api.ResultSkipped), true, cmdutil.ExitFailed},
		{api.StatusCompleted, strp(api.ResultFailed), false, cmdutil.ExitFailed},
		{api.StatusCompleted, strp("FLAKY"), false, cmdutil.ExitFailed},
		{api.StatusCompleted, nil, false, cmdutil.ExitFailed},
		{api.StatusError, nil, false, cmdutil.ExitRunError},
		{api.StatusCancelled, nil, false, cmdutil.ExitRunError},
		{api.StatusRunning, nil, false, cmdutil.ExitTimeout},
	}
	for _, c := range cases {
		if got := verdictCode(&api.RunDetail{Status: c.status, Result: c.result}, c.failOnS); got != c.want {
			t.Errorf("%s/%v fail-on-skipped=%v: %d, want %d", c.status, c.result, c.failOnS, got, c.want)
		}
	}
}

func TestObserveReportsEachChangeOnce(t *testing.T) {
	s := newRunState(RunTarget{ShortID: "r1"})
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
