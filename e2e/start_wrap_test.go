package e2e_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/testctl/testctl/pkg/cmdtest"
)

// The reasons under a failed case fit a narrow terminal, cut between
// words; a log keeps each on one line for grep.
func TestWaitSummaryWrapsReasonsToTheTerminal(t *testing.T) {
	e := cmdtest.New(t)
	const words = "no error was shown" // in the failing plan's evaluation
	r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 60}, "run", "start", "--plan", "pln-failing_sandbox", "--wait", "--no-color").Expect(t, 1)
	summary := r.Stderr[strings.Index(r.Stderr, "✗ Run "):]
	for _, line := range strings.Split(summary, "\n") {
		if strings.Contains(line, "testctl ") {
			continue // a command stays whole, to be copied; the terminal wraps it
		}
		if n := utf8.RuneCountInString(line); strings.HasPrefix(line, "      ") && n > 60 {
			t.Errorf("reason line of %d columns on a 60-column terminal: %q", n, line)
		}
	}
	cmdtest.Contains(t, "terminal summary", summary, words)

	r = e.Run("run", "start", "--plan", "pln-failing_sandbox", "--wait").Expect(t, 1)
	cmdtest.Contains(t, "log summary", r.Stderr, "dropped from $84.00 to $67.20 and no error was shown, so the expected rejection did not happen.")
}
