package wait

import (
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// runState is what a wait knows about one run between two polls.
type runState struct {
	target RunTarget
	poll   Target // the run's place in the Loop: schedule, failures, give-up

	detail   *api.RunDetail  // the latest answer, nil until the first one
	status   string          // the run status last reported to the user
	finished map[string]bool // test cases already reported as finished
	verdict  int             // the exit code of the final status, once reached
	notFound bool            // the last poll was a 404 (within the not-visible grace)
	// finishedAfter is the wait's elapsed time at the final status;
	// alreadyFinished: the run had ended before the wait began, which a run
	// created moments before the wait (justCreated) cannot have.
	finishedAfter   time.Duration
	alreadyFinished bool
	justCreated     bool
	// retryingSince and retryWhy describe, for the live line, the streak
	// of transient failures the poll is in (poll.failures > 0).
	retryingSince time.Duration
	retryWhy      string

	earlier    []Attempt // the runs --retry-failed reran, oldest first
	retryLimit int       // --retry-failed
	rerunErr   error     // why the last rerun could not be started
}

func newRunState(t RunTarget) *runState {
	s := &runState{target: t, finished: map[string]bool{}, poll: Target{Name: "run " + t.ShortID}}
	if !t.CreatedAt.IsZero() {
		// Only a run this machine created may be not visible yet; any
		// other id's 404 means there is no such run.
		s.poll.VisibleBy = t.CreatedAt.Add(NotYetVisibleGrace)
	}
	return s
}

// observe records a new answer and returns what changed since the previous
// one: whether the run status changed, and the test cases that finished.
func (s *runState) observe(d *api.RunDetail) (statusChanged bool, finished []api.RunTestCase) {
	s.detail = d
	if d.Status != s.status {
		s.status = d.Status
		statusChanged = true
	}
	for i, tc := range d.RunTestCases {
		if !api.IsTerminalStatus(tc.Status) {
			continue
		}
		key := caseKey(tc, i)
		if !s.finished[key] {
			s.finished[key] = true
			finished = append(finished, tc)
		}
	}
	return statusChanged, finished
}

// show records an answer, tells the view what changed and reports whether
// the run reached its final status.
func (s *runState) show(d *api.RunDetail, view progressView, elapsed time.Duration, failOnSkipped bool) (final bool) {
	firstAnswer := s.detail == nil
	changed, finished := s.observe(d)
	final = api.IsTerminalStatus(d.Status)
	if changed && !final {
		view.statusChanged(s, elapsed)
	}
	for _, tc := range finished {
		view.caseFinished(s, tc)
	}
	if final {
		s.verdict = verdictCode(d, failOnSkipped)
		s.alreadyFinished = firstAnswer && !s.justCreated
		s.finishedAfter = elapsed
		view.statusChanged(s, elapsed)
	}
	return final
}

// caseKey identifies a run test case across polls; the index is a last
// resort for a service that sends neither id.
func caseKey(tc api.RunTestCase, i int) string {
	switch {
	case tc.ShortID != "":
		return tc.ShortID
	case tc.ID != "":
		return tc.ID
	}
	return fmt.Sprintf("#%d", i)
}

// records freezes the runs' states for the reports; unfinished runs get the
// code of how the wait ended; interruptCode is 130 (Ctrl-C) or 143
// (SIGTERM).
func records(states []*runState, end End, interruptCode int) []Record {
	pendingWhy, pendingCode := "the wait timed out", cmdutil.ExitTimeout
	switch {
	case end == Interrupted && interruptCode == cmdutil.ExitTerminated:
		pendingWhy, pendingCode = "the wait was terminated", cmdutil.ExitTerminated
	case end == Interrupted:
		pendingWhy, pendingCode = "the wait was interrupted", cmdutil.ExitInterrupted
	}
	out := make([]Record, 0, len(states))
	for _, s := range states {
		r := Record{ShortID: s.target.ShortID, URL: s.target.URL, Plan: s.target.Plan, Detail: s.detail, Err: s.poll.Err(), Code: s.verdict,
			NotFoundYet: s.notFound && s.detail == nil, FinishedAfter: s.finishedAfter, AlreadyFinished: s.alreadyFinished,
			Earlier: s.earlier, RetryLimit: s.retryLimit, Attempt: len(s.earlier) + 1}
		switch {
		case r.Err != nil:
			r.Code = cmdutil.ExitCodeOf(r.Err)
		case !s.poll.Done():
			r.Pending, r.Code = pendingWhy, pendingCode
		case s.rerunErr != nil:
			r.Code = max(r.Code, cmdutil.ExitCodeOf(s.rerunErr))
		}
		out = append(out, r)
	}
	return out
}
