package wait_test

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
)

// At the end of a wait on a terminal the verdict is said once, in the
// summary, with how long the run took; the table of test cases follows on
// stdout. A run that had ended before the wait began says so instead of
// "after 00:00", on a terminal and off it.
func TestWaitSaysTheVerdictOnce(t *testing.T) {
	e := cmdtest.New(t)
	r := e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "start", "--plan", "pln-failing_sandbox", "--wait").Expect(t, 1)
	stderr := ansi.Strip(r.Stderr)
	if n := strings.Count(stderr, "COMPLETED · FAILED"); n != 1 {
		t.Errorf("the verdict appears %d times on stderr, want once:\n%s", n, stderr)
	}
	cmdtest.Contains(t, "summary", stderr, ": COMPLETED · FAILED after 00:15 — 4 passed · 2 failed · 1 skipped")
	cmdtest.Contains(t, "table", r.Stdout, "SHORT ID")
	id := strings.Fields(stderr[strings.Index(stderr, "Started run ")+len("Started run "):])[0]
	e.Clock.Advance(time.Minute)

	tests := []struct {
		name string
		ro   cmdtest.RunOptions
		want string
	}{
		{"terminal", cmdtest.RunOptions{TTY: true}, "Run " + id + ": COMPLETED · FAILED (already finished) — "},
		{"log", cmdtest.RunOptions{}, "run " + id + " COMPLETED · FAILED (already finished): 4 passed"},
	}
	for _, tt := range tests {
		r := e.RunWith(tt.ro, "run", "wait", id).Expect(t, 1)
		stderr := ansi.Strip(r.Stderr)
		cmdtest.Contains(t, tt.name, stderr, tt.want)
		if strings.Contains(stderr, "after 00:00") {
			t.Errorf("%s: a run that had already finished is said to end after 00:00:\n%s", tt.name, stderr)
		}
	}
}
