package runwait

import (
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/verdict"
)

// maxBlockLines bounds the live block of several runs: a block taller than
// the terminal could not be redrawn in place.
const maxBlockLines = 10

// blockLines is the live view of several runs, a line each: a spinner
// frame, the run, its plan, its status, counts and time, or its verdict
// once it ended; retries of a failing service show on the run's line.
func blockLines(states []*report.Progress, elapsed time.Duration, frame int) []string {
	glyph := iostreams.SpinnerFrame(frame)
	var lines []string
	for i, s := range states {
		if i == maxBlockLines-1 && len(states) > maxBlockLines {
			lines = append(lines, fmt.Sprintf("  … and %d more runs", len(states)-i))
			break
		}
		// The plan goes last: a narrow terminal cuts the end of a line,
		// and the run's state matters more.
		line := runLineState(s, elapsed, glyph)
		if t := s.Plan.Title(); t != "" {
			line += " — " + t
		}
		lines = append(lines, line)
	}
	return lines
}

func runLineState(s *report.Progress, elapsed time.Duration, glyph string) string {
	name := "run " + s.ShortID
	d := s.Detail
	switch {
	case s.Done && s.Err != nil:
		return "✗ " + name + ": no verdict"
	case s.Done && d != nil && verdict.Final(d.Status):
		v := s.Verdict()
		mark := "✓"
		if !v.OK() {
			mark = "✗"
		}
		return fmt.Sprintf("%s %s %s%s: %s", mark, name, report.StatusText(v), report.FinishedWhen(s.AlreadyFinished, s.FinishedAfter), v.Counts)
	}
	line := glyph + " " + name
	switch {
	case d == nil && s.NotFound:
		line += " not found yet " + report.FormatElapsed(elapsed)
	case d == nil:
		line += " waiting for the first answer " + report.FormatElapsed(elapsed)
	default:
		line += fmt.Sprintf(" %s %s · %s", d.Status, report.FormatElapsed(elapsed), verdict.Live(d.RunTestCases))
	}
	if s.Failing > 0 && s.RetryWhy != "" {
		line += " · " + s.RetryWhy + " for " + report.FormatElapsed(elapsed-s.RetryingSince) + ", retrying"
	}
	return line
}
