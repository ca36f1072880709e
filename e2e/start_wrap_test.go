package e2e_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/testctl/testctl/internal/cmdtest"
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

// Issue 33: on a 60-column terminal an evidence line that is too long is
// cut in its URL, never in its status: each request line under a failed
// case still says how the request ended, and the declined card's line
// still reads POST /api/payments 502. A log keeps every line whole.
func TestEvidenceLinesKeepTheirStatusOnANarrowTerminal(t *testing.T) {
	e := cmdtest.New(t)
	request := regexp.MustCompile(`^      \+[0-9.]+s (GET|POST|API) `)
	status := regexp.MustCompile(` ([1-5][0-9][0-9]|failed)( |$)`)
	r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 60}, "run", "start", "--plan", "pln-failing_sandbox", "--wait", "--no-color").Expect(t, 1)
	summary := r.Stderr[strings.Index(r.Stderr, "✗ Run "):]
	seen, cut := 0, 0
	for _, line := range strings.Split(summary, "\n") {
		if !request.MatchString(line) {
			continue
		}
		seen++
		if strings.Contains(line, "…") {
			cut++
		}
		if n := utf8.RuneCountInString(line); n > 60 {
			t.Errorf("evidence line of %d columns: %q", n, line)
		}
		if !status.MatchString(line) {
			t.Errorf("the status was cut off: %q", line)
		}
	}
	if seen == 0 || cut == 0 {
		t.Fatalf("want request lines, some of them shortened (%d of %d):\n%s", cut, seen, summary)
	}
	cmdtest.Contains(t, "terminal summary", summary, "POST /api/payments 502", "GET /api/reco…dations?sku=TR2-42 500")

	r = e.Run("run", "start", "--plan", "pln-failing_sandbox", "--wait").Expect(t, 1)
	cmdtest.Contains(t, "log summary", r.Stderr, "GET analytics.tracker.invalid/collect?v=2&t=pageview failed net::ERR_NAME_NOT_RESOLVED")
}
