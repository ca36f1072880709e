package runwait

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/report"
)

// liveView keeps a spinner line with the elapsed time and the counts, or,
// for several runs, a block of a line per run redrawn in place. Lines are
// printed above either, never interleaved with a redraw.
type liveView struct {
	ios   *iostreams.IOStreams
	lf    lineFormat
	msg   string
	block *iostreams.Block // several runs; nil for one
	frame int
}

func (v *liveView) println(line string) {
	if v.block != nil {
		v.block.Println(line)
		return
	}
	v.ios.StopSpinner()
	fmt.Fprintln(v.ios.ErrOut, line)
	if v.msg != "" {
		v.ios.StartSpinner(v.msg)
	}
}

func (v *liveView) Name() string { return "the live view" }

// RunChanged and RunEnded print nothing: the spinner shows the statuses in
// progress, and the summary that follows the wait gives each verdict once.
// The spinner of a single run stops at its end, so it never shows a status
// the run has left while the failure story is read; a rerun of
// --retry-failed starts it again at the next tick.
func (v *liveView) RunChanged(*report.Progress, time.Duration) {}
func (v *liveView) RunEnded(*report.Progress, time.Duration) {
	if v.block == nil {
		v.stop()
	}
}
func (v *liveView) CaseEnded(s *report.Progress, tc api.RunTestCase) { v.println(v.lf.testCase(s, tc)) }
func (v *liveView) Notice(msg string)                                { v.println(msg) }

// Retrying prints nothing: a failure the wait rides out is a state of the
// live line ("· service failing (HTTP 503) for 00:40, retrying"), gone when
// the service answers again, not a message that stays on the screen.
func (v *liveView) Retrying(*report.Progress, time.Duration, error) {}

func (v *liveView) Tick(states []*report.Progress, elapsed time.Duration) {
	if v.block != nil {
		v.block.Draw(blockLines(states, elapsed, v.frame))
		v.frame++
		return
	}
	if len(states) != 1 || states[0].Done {
		return // the run has ended: the summary follows
	}
	v.msg = liveMessage(states[0], elapsed)
	v.ios.StartSpinner(v.msg) // starts it, or only changes the message
}

// End clears the live line or block: the summary, a reporter of its own,
// is written after it.
func (v *liveView) End(report.Outcome) error {
	v.stop()
	return nil
}

func (v *liveView) stop() {
	if v.block != nil {
		v.block.Clear()
		return
	}
	v.msg = ""
	v.ios.StopSpinner()
}

// liveMessage is the spinner's line of a wait on one run: "run abc123
// RUNNING 00:42 · 3 passed · 1 failed · 2 running" (several runs get a
// block, a line each: blockLines).
func liveMessage(s *report.Progress, elapsed time.Duration) string {
	head, rest, _ := strings.Cut(runLineState(s, elapsed, ""), " · ")
	if rest != "" {
		rest = " · " + rest
	}
	return strings.TrimSpace(head) + rest
}

// retryReason names a transient failure in a few words, for the live line.
func retryReason(err error) string {
	var he *api.HTTPError
	var te *api.TransportError
	switch {
	case errors.As(err, &he) && he.StatusCode == http.StatusTooManyRequests:
		return "rate-limited by the service"
	case errors.As(err, &he):
		return fmt.Sprintf("service failing (HTTP %d)", he.StatusCode)
	case errors.As(err, &te):
		return "connection failing"
	}
	return "service failing"
}
