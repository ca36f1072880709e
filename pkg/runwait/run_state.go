package runwait

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/baseline"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/poll"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/verdict"
)

// runState is what a wait knows about one run between two polls.
type runState struct {
	target RunTarget
	poll   poll.Target // the run's place in the Loop: schedule, failures, give-up
	vo     verdict.Options
	now    func() time.Time
	// lookup is the --baseline search (nil: none), for the views' verdict.
	lookup *baseline.Lookup

	detail *api.RunDetail // the latest answer, nil until the first one
	status string         // the run status last reported to the user
	// finished holds, for each test case reported as ended, what it ended
	// as (status, result and its title): a test case the service later
	// reports otherwise ended again.
	finished map[string]string
	notFound bool // the last poll was a 404 (within the not-visible grace)
	// finishedAfter is the wait's elapsed time at the final status;
	// alreadyFinished: the run had ended before the wait began, which a run
	// created moments before the wait (justCreated) cannot have.
	finishedAfter   time.Duration
	alreadyFinished bool
	justCreated     bool
	// retryingSince and retryWhy describe, for the live line, the streak
	// of transient failures the poll is in.
	retryingSince time.Duration
	retryWhy      string
	// failing is the poll's streak of failures (tests set their own).
	failing func() int

	earlier    []verdict.Attempt // the runs --retry-failed reran, oldest first
	retryLimit int               // --retry-failed
	rerunErr   error             // why the last rerun could not be started
	// rerunning carries the answer of a rerun being started; rerunDone is
	// closed when it has come (the loop parks the run meanwhile).
	rerunning chan rerunAnswer
	rerunDone chan struct{}
	// sooner: the one earlier poll of a run whose test cases have all ended
	// was made (pollSooner).
	sooner bool
}

func newRunState(t RunTarget, now time.Time) *runState {
	s := &runState{target: t, finished: map[string]string{}, poll: poll.Target{Name: "run " + t.ShortID},
		earlier: t.Earlier}
	s.failing = s.poll.Failures
	if !t.CreatedAt.IsZero() {
		// Only a run this machine created may be not visible yet; any
		// other id's 404 means there is no such run.
		s.poll.VisibleBy = t.CreatedAt.Add(api.NotYetVisibleGrace)
		s.justCreated = now.Sub(t.CreatedAt) < api.NotYetVisibleGrace
		// A run this machine started is known to exist: the start's answer
		// counts as one, so a silent service at --timeout is still a run
		// that goes on (7), not a service that never answered (6).
		s.poll.MarkAnswered()
	}
	return s
}

// observe records a new answer and returns what changed since the previous
// one: whether the run status changed, and the test cases that ended, for
// the first time or as something else than when they last ended (a test
// case the service retries within the run runs again, then ends again).
func (s *runState) observe(d *api.RunDetail) (statusChanged bool, ended []api.RunTestCase) {
	s.detail = d
	if d.Status != s.status {
		s.status = d.Status
		statusChanged = true
	}
	for i, tc := range d.RunTestCases {
		key := caseKey(tc, i)
		if !verdict.Final(tc.Status) {
			delete(s.finished, key) // running again: its next end is news
			continue
		}
		if as := tc.Status + "/" + tc.Result + "/" + tc.ResultTitle; s.finished[key] != as {
			s.finished[key] = as
			ended = append(ended, tc)
		}
	}
	return statusChanged, ended
}

// show records an answer, tells the reporters what changed and reports
// whether the run reached its final status.
func (s *runState) show(d *api.RunDetail, events report.Reporter, elapsed time.Duration) (final bool) {
	firstAnswer := s.detail == nil
	changed, ended := s.observe(d)
	final = verdict.Final(d.Status)
	if changed && !final {
		events.RunChanged(s.progress(), elapsed)
	}
	for _, tc := range ended {
		events.CaseEnded(s.progress(), tc)
	}
	if final {
		s.alreadyFinished = firstAnswer && !s.justCreated
		s.finishedAfter = elapsed
		events.RunEnded(s.progress(), elapsed)
	}
	return final
}

// soonerPoll is how soon a run whose test cases have all ended is polled
// again, once: the service ends the run shortly after its last test case,
// and the verdict should follow within about a second rather than half an
// interval on average.
const soonerPoll = time.Second

// pollSooner says when to poll the run next if sooner than the interval:
// once per run, when every test case of a run that has not ended has.
func (s *runState) pollSooner() time.Duration {
	d := s.detail
	if s.sooner || d == nil || verdict.Final(d.Status) || len(d.RunTestCases) == 0 {
		return 0
	}
	for _, tc := range d.RunTestCases {
		if !verdict.Final(tc.Status) {
			return 0
		}
	}
	s.sooner = true
	return soonerPoll
}

// verdict is the run's verdict as it stands, decided where every report's
// is: the views show the same mark the summary will.
func (s *runState) verdict() verdict.Run {
	vo := s.vo
	if s.now != nil {
		vo.Now = s.now() // a quarantine that has expired fails here too
	}
	if s.lookup != nil {
		// The baselines the summary will use, once the search has ended
		// (it begins with the wait, and is over long before most runs).
		if res, ok := s.lookup.Ready(); ok {
			vo.Baselines, vo.PlanOf = res.Baselines, res.PlanOf
		}
	}
	return verdict.Decide([]verdict.Record{s.record("")}, vo).Runs[0]
}

// progress is what the reporters are told of the run for an event: a
// snapshot, so that no reporter holds, or changes, the wait's own state.
func (s *runState) progress() *report.Progress {
	return &report.Progress{ShortID: s.target.ShortID, Plan: s.target.Plan, Detail: s.detail, NotFound: s.notFound,
		Done: s.poll.Done(), Err: s.poll.Err(), Failing: s.failing(), RetryingSince: s.retryingSince, RetryWhy: s.retryWhy,
		AlreadyFinished: s.alreadyFinished, FinishedAfter: s.finishedAfter, Decide: s.verdict}
}

// progressOf is progress for every run.
func progressOf(states []*runState) []*report.Progress {
	out := make([]*report.Progress, len(states))
	for i, s := range states {
		out[i] = s.progress()
	}
	return out
}

// caseKey identifies a run test case across polls; the index is a last
// resort for a service that sends neither id.
func caseKey(tc api.RunTestCase, i int) string {
	if key := cmp.Or(tc.ShortID, tc.ID); key != "" {
		return key
	}
	return fmt.Sprintf("#%d", i)
}

// record is the run as the reports see it; stop is how the wait ended for
// a run it did not see end.
func (s *runState) record(stop verdict.Stop) verdict.Record {
	r := verdict.Record{ShortID: s.target.ShortID, URL: s.target.URL, Plan: s.target.Plan, Detail: s.detail, Err: s.poll.Err(),
		NotFoundYet: s.notFound && s.detail == nil, FinishedAfter: s.finishedAfter, AlreadyFinished: s.alreadyFinished,
		Earlier: s.earlier, RetryLimit: s.retryLimit, RerunErr: s.rerunErr, CIRetry: s.target.CIRetry}
	// A run whose rerun was being started had not ended either.
	if (r.Err == nil && !s.poll.Done()) || s.rerunning != nil {
		r.Stop = stop
	}
	return r
}

// records freezes the runs' states for the verdict; loopErr, when the loop
// ended on an error, is the error of every run it had not seen end.
func records(states []*runState, end poll.End, ctx context.Context, loopErr error) []verdict.Record {
	stop := verdict.TimedOut
	if end == poll.Interrupted {
		stop = verdict.Interrupted
		if cmdutil.InterruptCode(ctx) == exitcode.Terminated {
			stop = verdict.Terminated
		}
	}
	out := make([]verdict.Record, 0, len(states))
	for _, s := range states {
		r := s.record(stop)
		if loopErr != nil && r.Stop != "" {
			r.Err, r.Stop = loopErr, ""
		}
		out = append(out, r)
	}
	return out
}
