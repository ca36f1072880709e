package runwait

import (
	"errors"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// The live line says what is failing and for how long while a streak of
// transient failures lasts, and forgets it once the service answers.
func TestLiveMessageFoldsRetries(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&api.HTTPError{StatusCode: 503}, "run abc123 RUNNING 00:50 · 1 running · service failing (HTTP 503) for 00:40, retrying"},
		{&api.HTTPError{StatusCode: 429}, "run abc123 RUNNING 00:50 · 1 running · rate-limited by the service for 00:40, retrying"},
		{&api.TransportError{Err: errors.New("EOF")}, "run abc123 RUNNING 00:50 · 1 running · connection failing for 00:40, retrying"},
	}
	for _, tt := range tests {
		s := newRunState(RunTarget{ShortID: "abc123"}, time.Time{})
		s.observe(&api.RunDetail{ShortID: "abc123", Status: api.StatusRunning, RunTestCases: []api.RunTestCase{{Status: api.StatusRunning}}})
		// What the loop's Retrying does as the streak begins (watchRuns).
		s.retryingSince, s.retryWhy = 10*time.Second, retryReason(tt.err)
		s.failing = func() int { return 2 }
		if got := liveMessage(s.progress(), 50*time.Second); got != tt.want {
			t.Errorf("during the streak\n got %q\nwant %q", got, tt.want)
		}
		s.failing = func() int { return 0 }
		if got, want := liveMessage(s.progress(), 55*time.Second), "run abc123 RUNNING 00:55 · 1 running"; got != want {
			t.Errorf("after the streak\n got %q\nwant %q", got, want)
		}
	}
}
