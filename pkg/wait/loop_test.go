package wait

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
)

func strp(s string) *string { return &s }

func TestRetryDelayBacksOffWithJitterAndHonoursRetryAfter(t *testing.T) {
	lo, hi := func() float64 { return 0 }, func() float64 { return 0.999999 }
	cases := []struct {
		n              int
		interval       time.Duration
		retryAfter     time.Duration
		wantLo, wantHi time.Duration
	}{
		{1, 5 * time.Second, 0, 2500 * time.Millisecond, 5 * time.Second},
		{2, 5 * time.Second, 0, 5 * time.Second, 10 * time.Second},
		{3, 5 * time.Second, 0, 10 * time.Second, 20 * time.Second},
		{9, 5 * time.Second, 0, 30 * time.Second, 60 * time.Second}, // capped at a minute
		{1, 5 * time.Second, 20 * time.Second, 20 * time.Second, 20 * time.Second},
		{1, 2 * time.Minute, 0, time.Minute, 2 * time.Minute}, // never below half an interval
	}
	for _, c := range cases {
		gotLo := retryDelay(c.n, c.interval, c.retryAfter, lo)
		gotHi := retryDelay(c.n, c.interval, c.retryAfter, hi)
		if gotLo != c.wantLo || gotHi < c.wantHi-time.Millisecond || gotHi > c.wantHi {
			t.Errorf("retryDelay(%d, %s, %s) in [%s, %s], want [%s, %s]", c.n, c.interval, c.retryAfter, gotLo, gotHi, c.wantLo, c.wantHi)
		}
	}
}

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
	s := newRunState(RunTarget{ShortID: "r1"}, time.Unix(0, 0))
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

func TestLiveMessageOnFakeClock(t *testing.T) {
	s := newRunState(RunTarget{ShortID: "abc123"}, time.Unix(0, 0))
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
	other := newRunState(RunTarget{ShortID: "def456"}, time.Unix(0, 0))
	got = liveMessage([]*runState{s, other}, time.Hour+2*time.Second)
	if !strings.HasPrefix(got, "1:00:02 run abc123 RUNNING") || !strings.Contains(got, "; run def456 waiting") {
		t.Errorf("two runs: %q", got)
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

func TestValidateWaitOptions(t *testing.T) {
	dir := t.TempDir()
	ok := Options{Interval: time.Second, Timeout: time.Minute, JUnitFile: dir + "/r.xml"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]Options{
		"zero interval":    {Interval: 0, Timeout: time.Minute},
		"negative timeout": {Interval: time.Second, Timeout: -time.Second},
		"missing dir":      {Interval: time.Second, Timeout: time.Minute, JUnitFile: dir + "/nope/r.xml"},
		"junit is a dir":   {Interval: time.Second, Timeout: time.Minute, JUnitFile: dir},
	} {
		if err := o.Validate(); cmdutil.ExitCodeOf(err) != cmdutil.ExitUsage {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}
