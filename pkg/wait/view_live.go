package wait

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
)

// liveView keeps a spinner line with the elapsed time and the counts. Lines
// are printed with the spinner stopped, so they never interleave with a
// redraw.
type liveView struct {
	ios *iostreams.IOStreams
	lf  lineFormat
	msg string
}

func (v *liveView) println(line string) {
	v.ios.StopSpinner()
	fmt.Fprintln(v.ios.ErrOut, line)
	if v.msg != "" {
		v.ios.StartSpinner(v.msg)
	}
}

// statusChanged prints nothing: the spinner shows the statuses in
// progress, and the summary that follows the wait gives each verdict once.
func (v *liveView) statusChanged(*runState, time.Duration)       {}
func (v *liveView) caseFinished(s *runState, tc api.RunTestCase) { v.println(v.lf.testCase(s, tc)) }
func (v *liveView) notice(msg string)                            { v.println(msg) }

// retrying prints nothing: a failure the wait rides out is a state of the
// live line ("· service failing (HTTP 503) for 00:40, retrying"), gone when
// the service answers again, not a message that stays on the screen.
func (v *liveView) retrying(s *runState, elapsed time.Duration, err error) {
	s.retryingSince, s.retryWhy = elapsed, retryReason(err)
}

func (v *liveView) refresh(states []*runState, elapsed time.Duration) {
	v.msg = liveMessage(states, elapsed)
	v.ios.StartSpinner(v.msg) // starts it, or only changes the message
}

func (v *liveView) stop() {
	v.msg = ""
	v.ios.StopSpinner()
}

// liveMessage is the spinner's line: "run abc123 RUNNING 00:42 · 3 passed ·
// 1 failed · 2 running", or one segment per unfinished run.
func liveMessage(states []*runState, elapsed time.Duration) string {
	var segs []string
	for _, s := range states {
		if s.poll.Done() {
			continue
		}
		seg := "run " + s.target.ShortID
		switch {
		case s.detail == nil && s.notFound:
			seg += " not found yet"
		case s.detail == nil:
			seg += " waiting for the first answer"
		default:
			seg += " " + s.detail.Status + " · " + countCases(s.detail.RunTestCases).String()
		}
		if s.poll.failures > 0 && s.retryWhy != "" {
			seg += " · " + s.retryWhy + " for " + formatElapsed(elapsed-s.retryingSince) + ", retrying"
		}
		segs = append(segs, seg)
	}
	if len(segs) == 1 {
		head, rest, _ := strings.Cut(segs[0], " · ")
		if rest == "" {
			return head + " " + formatElapsed(elapsed)
		}
		return head + " " + formatElapsed(elapsed) + " · " + rest
	}
	return formatElapsed(elapsed) + " " + strings.Join(segs, "; ")
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
