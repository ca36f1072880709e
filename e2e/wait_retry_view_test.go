package e2e_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
)

// A failure the wait rides out is a passing state of a terminal's live
// line, not a warning left on the screen; a log keeps it as a line.
func TestTransientWarningsFoldIntoTheLiveLine(t *testing.T) {
	tests := []struct {
		name    string
		ro      cmdtest.RunOptions
		warning bool
	}{
		{"terminal", cmdtest.RunOptions{TTY: true}, false},
		{"log", cmdtest.RunOptions{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := cmdtest.New(t)
			scripted(t, e, running, err500, err500, passed)
			r := e.RunWith(tt.ro, "run", "wait", "r1").Expect(t, 0)
			stderr := ansi.Strip(r.Stderr)
			if got := strings.Contains(stderr, "warning: run r1: "); got != tt.warning {
				t.Errorf("warning line printed = %v, want %v:\n%s", got, tt.warning, stderr)
			}
			cmdtest.Contains(t, "stderr", stderr, "Run r1: COMPLETED · PASSED")
		})
	}
}
