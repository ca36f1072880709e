package runwait

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/verdict"
)

func TestLiveMessageOnFakeClock(t *testing.T) {
	s := newRunState(RunTarget{ShortID: "abc123"}, time.Time{})
	s.observe(&api.RunDetail{ShortID: "abc123", Status: api.StatusRunning, RunTestCases: []api.RunTestCase{
		{Status: api.StatusCompleted, Result: api.ResultPassed}, {Status: api.StatusCompleted, Result: api.ResultPassed},
		{Status: api.StatusCompleted, Result: api.ResultPassed}, {Status: api.StatusCompleted, Result: api.ResultFailed},
		{Status: api.StatusRunning}, {Status: api.StatusRunning},
	}})
	got := liveMessage(s.progress(), 42*time.Second)
	want := "run abc123 RUNNING 00:42 · 3 passed · 1 failed · 2 running"
	if got != want {
		t.Errorf("live message\n got %q\nwant %q", got, want)
	}
	other := newRunState(RunTarget{ShortID: "def456"}, time.Time{})
	if got := liveMessage(other.progress(), time.Hour+2*time.Second); got != "run def456 waiting for the first answer 1:00:02" {
		t.Errorf("no answer yet: %q", got)
	}
	other.notFound = true // the service answered 404 within the grace
	if got := liveMessage(other.progress(), 3*time.Second); got != "run def456 not found yet 00:03" {
		t.Errorf("a run the service does not know yet: %q", got)
	}
}

// The block of several runs: a line each, in progress with a spinner frame,
// ended with its verdict (which stays), and at most maxBlockLines lines.
func TestBlockLinesOfSeveralRuns(t *testing.T) {
	running := newRunState(RunTarget{ShortID: "r1", Plan: verdict.Plan{Name: "Smoke"}}, time.Time{})
	running.observe(&api.RunDetail{ShortID: "r1", Status: api.StatusRunning, RunTestCases: []api.RunTestCase{
		{Status: api.StatusCompleted, Result: api.ResultPassed}, {Status: api.StatusRunning}}})
	running.failing, running.retryWhy, running.retryingSince = func() int { return 2 }, "service failing (HTTP 503)", 30*time.Second
	failed := newRunState(RunTarget{ShortID: "r2"}, time.Time{})
	failed.observe(&api.RunDetail{ShortID: "r2", Status: api.StatusCompleted, Result: strp(api.ResultFailed),
		RunTestCases: []api.RunTestCase{{Status: api.StatusCompleted, Result: api.ResultFailed}}})
	failed.poll.End()
	failed.finishedAfter = 40 * time.Second
	unseen := newRunState(RunTarget{ShortID: "r3"}, time.Time{})
	unseen.notFound = true
	got := blockLines(progressOf([]*runState{running, failed, unseen}), 42*time.Second, 0)
	frame := iostreams.SpinnerFrame(0)
	want := []string{
		frame + " run r1 RUNNING 00:42 · 1 passed · 1 running · service failing (HTTP 503) for 00:12, retrying — Smoke",
		"✗ run r2 COMPLETED · FAILED after 00:40: 1 failed",
		frame + " run r3 not found yet 00:42",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("block\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	many := make([]*runState, 12)
	for i := range many {
		many[i] = newRunState(RunTarget{ShortID: fmt.Sprintf("r%d", i)}, time.Time{})
	}
	got = blockLines(progressOf(many), 0, 1)
	if len(got) != maxBlockLines || got[maxBlockLines-1] != "  … and 3 more runs" {
		t.Errorf("12 runs: %d lines, last %q", len(got), got[len(got)-1])
	}
}

// noticeRecorder keeps the notices it is given.
type noticeRecorder struct {
	report.IgnoreEvents
	notices *[]string
}

func (n noticeRecorder) Name() string             { return "notices" }
func (n noticeRecorder) Notice(msg string)        { *n.notices = append(*n.notices, msg) }
func (n noticeRecorder) End(report.Outcome) error { return nil }

// A note of a long pause before a retry, during a wait, is a notice of the
// wait (the live view prints it above its line instead of through it); the
// command's own client is left as it was.
func TestRetryNotesOfTheWaitAreNotices(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var direct, notices []string
	client := &api.Client{OnRetry: func(p api.RetryPause) { direct = append(direct, p.String()) }}
	c := announceRetriesTo(noticeRecorder{notices: &notices}, Deps{IO: ios, Client: client})
	c.OnRetry(api.RetryPause{Method: "GET", Path: "/v1/runs/r1/logs", Attempt: 1, MaxAttempts: 4, Wait: 30 * time.Second, Reason: "HTTP 429"})
	if len(direct) != 0 || len(notices) != 1 || !strings.HasPrefix(notices[0], "warning: GET /v1/runs/r1/logs: HTTP 429; retrying in") {
		t.Fatalf("notices %q, written directly %q", notices, direct)
	}
	client.OnRetry(api.RetryPause{Method: "GET", Path: "/x"})
	if len(direct) != 1 || len(notices) != 1 {
		t.Errorf("the command's client was changed: notices %q, direct %q", notices, direct)
	}
}
