package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/verdict"
)

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

// EndedWhen is FinishedWhen of a record whose wait saw it end, "" for
// one whose end no wait saw, as the summary says it (WriteSummary): the
// HTML report says the same, and gives the run no other time.
func EndedWhen(r verdict.Record) string {
	if !r.AlreadyFinished && r.FinishedAfter <= 0 {
		return ""
	}
	return FinishedWhen(r.AlreadyFinished, r.FinishedAfter)
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
