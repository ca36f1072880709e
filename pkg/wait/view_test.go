package wait

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

func TestLiveMessageOnFakeClock(t *testing.T) {
	s := newRunState(RunTarget{ShortID: "abc123"})
	s.observe(&api.RunDetail{ShortID: "abc123", Status: api.StatusRunning, RunTestCases: []api.RunTestCase{
		{Status: api.StatusCompleted, Result: api.ResultPassed}, {Status: api.StatusCompleted, Result: api.ResultPassed},
		{Status: api.StatusCompleted, Result: api.ResultPassed}, {Status: api.StatusCompleted, Result: api.ResultFailed},
		{Status: api.StatusRunning}, {Status: api.StatusRunning},
	}})
	got := liveMessage([]*runState{s}, 42*time.Second)
	want := "run abc123 RUNNING 00:42 · 3 passed · 1 failed · 2 running"
	if got != want {
		t.Errorf("live message\n got %q\nwant %q", got, want)
	}
	other := newRunState(RunTarget{ShortID: "def456"})
	got = liveMessage([]*runState{s, other}, time.Hour+2*time.Second)
	if !strings.HasPrefix(got, "1:00:02 run abc123 RUNNING") || !strings.Contains(got, "; run def456 waiting") {
		t.Errorf("two runs: %q", got)
	}
	other.notFound = true // the service answered 404 within the grace
	if got := liveMessage([]*runState{other}, 3*time.Second); got != "run def456 not found yet 00:03" {
		t.Errorf("a run the service does not know yet: %q", got)
	}
	s.poll.done = true
	if got := liveMessage([]*runState{s, other}, 0); strings.Contains(got, "abc123") {
		t.Errorf("a finished run stays in the live line: %q", got)
	}
}

func TestCountsString(t *testing.T) {
	if got := (caseCounts{}).String(); got != "no test cases yet" {
		t.Errorf("empty: %q", got)
	}
	c := countCases([]api.RunTestCase{{Status: api.StatusInitiated}, {Status: api.StatusCancelled},
		{Status: api.StatusError}, {Status: api.StatusCompleted, Result: api.ResultSkipped}})
	if got := c.String(); got != "1 skipped · 1 errored · 1 cancelled · 1 queued" {
		t.Errorf("counts: %q", got)
	}
}
