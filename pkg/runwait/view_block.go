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
func blockLines(states []*runState, elapsed time.Duration, frame int) []string {
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
		if t := s.target.Plan.Title(); t != "" {
			line += " — " + t
		}
		lines = append(lines, line)
	}
	return lines
}

func runLineState(s *runState, elapsed time.Duration, glyph string) string {
	name := "run " + s.target.ShortID
	d := s.detail
	switch {
	case s.poll.Done() && s.poll.Err() != nil:
		return "✗ " + name + ": no verdict"
	case s.poll.Done() && d != nil && verdict.Final(d.Status):
		v := s.verdict()
		mark := "✓"
		if v.Code != 0 {
			mark = "✗"
		}
		return fmt.Sprintf("%s %s %s%s: %s", mark, name, v.StatusText(), report.FinishedWhen(s.alreadyFinished, s.finishedAfter), v.Counts)
	}
	line := glyph + " " + name
	switch {
	case d == nil && s.notFound:
		line += " not found yet " + report.FormatElapsed(elapsed)
	case d == nil:
		line += " waiting for the first answer " + report.FormatElapsed(elapsed)
	default:
		line += fmt.Sprintf(" %s %s · %s", d.Status, report.FormatElapsed(elapsed), verdict.Live(d.RunTestCases))
	}
	if s.failing() > 0 && s.retryWhy != "" {
		line += " · " + s.retryWhy + " for " + report.FormatElapsed(elapsed-s.retryingSince) + ", retrying"
	}
	return line
}
