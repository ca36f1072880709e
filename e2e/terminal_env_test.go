package e2e_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Issue 39, point 2: TERM=dumb is line mode on a terminal (a line per
// change of state, no live line redrawn), and COLUMNS is the width of a
// terminal that does not say its own: the failure story fits it.
func TestTerminalEnvironment(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TERM", "dumb")
	r := e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "start", "--plan", sandbox.PlanFailing, "--wait", "--no-color").Expect(t, 1)
	if strings.Contains(r.Stderr, "\x1b[") || strings.Contains(r.Stderr, "\r") {
		t.Errorf("a redraw on TERM=dumb:\n%q", r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, " RUNNING\n", " ✗ Apply an expired coupon (FAILED)")

	e.Setenv("TERM", "xterm-256color")
	e.Setenv("COLUMNS", "50")
	r = e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "start", "--plan", sandbox.PlanFailing, "--wait", "--no-color").Expect(t, 1)
	story := r.Stderr[strings.Index(r.Stderr, "✗ Run "):]
	for line := range strings.Lines(story) {
		line = strings.TrimSuffix(line, "\n")
		// The reasons are wrapped and the evidence is cut to the width.
		reason := strings.HasPrefix(line, "      ") && !strings.HasPrefix(line, "      plan ")
		if reason && !strings.Contains(line, "testctl ") && ansi.StringWidth(line) > 50 {
			t.Errorf("a line of the story wider than COLUMNS=50: %q", line)
		}
	}
	cmdtest.Contains(t, "story", story, "…") // the evidence was cut to fit
}
