package runwait

import (
	"fmt"
	"io"
	"time"

	"github.com/testctl/testctl/pkg/api"

	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// DefaultHeartbeat is the contract's --heartbeat: half of CircleCI's ten
// minutes without output, after which it kills a step.
const DefaultHeartbeat = 5 * time.Minute

// heartbeat is the line mode's companion: when nothing was printed for a
// while it prints a progress line, as a CI watchdog that kills a silent
// step (CircleCI's ten minutes) must not kill a long run that is doing
// fine. Every event but the tick is a line the line mode printed.
type heartbeat struct {
	w       io.Writer
	every   time.Duration // 0: never
	elapsed func() time.Duration
	last    time.Duration // when the line mode last printed, in wait time
}

// printed notes that a line was just printed.
func (h *heartbeat) printed() { h.last = h.elapsed() }

// due reports whether nothing was printed for a whole period by elapsed.
func (h *heartbeat) due(elapsed time.Duration) bool {
	return h.every > 0 && elapsed-h.last >= h.every
}

func (h *heartbeat) Name() string                                    { return "the heartbeat" }
func (h *heartbeat) RunChanged(*report.Progress, time.Duration)      { h.printed() }
func (h *heartbeat) RunEnded(*report.Progress, time.Duration)        { h.printed() }
func (h *heartbeat) CaseEnded(*report.Progress, api.RunTestCase)     { h.printed() }
func (h *heartbeat) Notice(string)                                   { h.printed() }
func (h *heartbeat) Retrying(*report.Progress, time.Duration, error) { h.printed() }
func (h *heartbeat) End(report.Outcome) error                        { return nil }

// Tick prints the heartbeat of every unfinished run when it is due.
func (h *heartbeat) Tick(states []*report.Progress, elapsed time.Duration) {
	if !h.due(elapsed) {
		return
	}
	for _, s := range states {
		if !s.Done {
			fmt.Fprintln(h.w, heartbeatLine(s, elapsed))
		}
	}
	h.last = elapsed
}

// heartbeatLine is "run r1a2b3 still RUNNING after 15:00: 3 of 7 done".
func heartbeatLine(s *report.Progress, elapsed time.Duration) string {
	if s.Detail == nil {
		return fmt.Sprintf("run %s: no answer yet after %s", termtext.SanitizeLine(s.ShortID), report.FormatElapsed(elapsed))
	}
	done := 0
	for _, tc := range s.Detail.RunTestCases {
		if verdict.Final(tc.Status) {
			done++
		}
	}
	return fmt.Sprintf("run %s still %s after %s: %d of %d done", termtext.SanitizeLine(s.ShortID),
		termtext.SanitizeLine(s.Detail.Status), report.FormatElapsed(elapsed), done, len(s.Detail.RunTestCases))
}
