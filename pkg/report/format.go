package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/verdict"
)

// StatusText is "COMPLETED · FAILED", or the bare status while there is no
// result.
func StatusText(d *api.RunDetail) string { return d.Status + prefixed(" · ", d.ResultOrEmpty()) }

// CaseCounts tallies a run's test cases by what they mean for the user.
type CaseCounts struct {
	passed, failed, skipped, errored, cancelled, running, queued int
}

func CountCases(tcs []api.RunTestCase) CaseCounts {
	var c CaseCounts
	for _, tc := range tcs {
		switch {
		case tc.Status == api.StatusError:
			c.errored++
		case tc.Status == api.StatusCancelled:
			c.cancelled++
		case tc.Status == api.StatusRunning:
			c.running++
		case tc.Status != api.StatusCompleted:
			c.queued++
		case tc.Result == api.ResultPassed:
			c.passed++
		case tc.Result == api.ResultSkipped:
			c.skipped++
		default:
			// A COMPLETED case with FAILED or a result this client does
			// not know is counted as failed: it did not pass.
			c.failed++
		}
	}
	return c
}

// String lists the non-zero counts: "3 passed · 1 failed · 2 running".
func (c CaseCounts) String() string {
	return verdict.JoinCounts("no test cases yet", []int{c.passed, c.failed, c.skipped, c.errored, c.cancelled, c.running, c.queued},
		"passed", "failed", "skipped", "errored", "cancelled", "running", "queued")
}

// prefixed is s after sep, or nothing when s is "".
func prefixed(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}

func FirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// FinishedWhen says when a run ended: " after 00:15" into the wait, or
// " (already finished)" before it began, where "after 00:00" would read as
// a run that took no time.
func FinishedWhen(already bool, after time.Duration) string {
	if already {
		return " (already finished)"
	}
	return " after " + FormatElapsed(after)
}

// FormatElapsed is mm:ss, or h:mm:ss from an hour on.
func FormatElapsed(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%02d:%02d", m, s)
}
