package runwait

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
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

// runChanged and runEnded print nothing: the spinner shows the statuses in
// progress, and the summary that follows the wait gives each verdict once.
func (v *liveView) runChanged(*runState, time.Duration)       {}
func (v *liveView) runEnded(*runState, time.Duration)         {}
func (v *liveView) caseEnded(s *runState, tc api.RunTestCase) { v.println(v.lf.testCase(s, tc)) }
func (v *liveView) notice(msg string)                         { v.println(msg) }

// retrying prints nothing: a failure the wait rides out is a state of the
// live line ("· service failing (HTTP 503) for 00:40, retrying"), gone when
// the service answers again, not a message that stays on the screen.
func (v *liveView) retrying(s *runState, elapsed time.Duration, err error) {
	s.retryingSince, s.retryWhy = elapsed, retryReason(err)
}

func (v *liveView) tick(states []*runState, elapsed time.Duration) {
	if v.block != nil {
		v.block.Draw(blockLines(states, elapsed, v.frame))
		v.frame++
		return
	}
	if len(states) != 1 || states[0].poll.Done() {
		return // the run has ended: the summary follows
	}
	v.msg = liveMessage(states[0], elapsed)
	v.ios.StartSpinner(v.msg) // starts it, or only changes the message
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
func liveMessage(s *runState, elapsed time.Duration) string {
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
