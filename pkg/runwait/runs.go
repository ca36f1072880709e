package runwait

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/poll"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// RunTarget is one run to wait for. CreatedAt is when this machine created
// the run (zero if it did not): a 404 within api.NotYetVisibleGrace of it
// means the run is not visible yet rather than missing; any other id's 404
// is final.
type RunTarget struct {
	ShortID   string
	URL       string
	Plan      verdict.Plan
	CreatedAt time.Time
	// Earlier are the runs a retried CI job took up before this one,
	// oldest first (the earlier attempt's run and its reruns), and CIRetry
	// what it did with them (--ci-retry); none outside a CI retry.
	Earlier []verdict.Attempt
	CIRetry *verdict.CIRetry
}

// Deps are what a wait uses: the streams, the client, the clock and the
// environment, given by the command.
type Deps struct {
	IO     *iostreams.IOStreams
	Client *api.Client
	Clock  clock.Clock
	Getenv func(string) string
	Output output.Options
	Debug  bool
	// Resume: the flags that chose the service, for the resume hint.
	Resume report.Resume
	// Rerun starts a rerun for --retry-failed: the command's reconciled
	// rerun (pkg/reconcile), so a lost answer is adopted rather than
	// doubled; nil sends the request once, directly.
	Rerun func(ctx context.Context, shortID string, req api.RerunRequest) (*api.StartRunResponse, error)
	// NoData: stdout keeps only what the command printed before (-q).
	NoData bool
	// Step gathers the runs and the reports written for the outputs of a
	// CI step (the factory's); nil gathers nothing.
	Step *stepoutputs.Step
}

// liveTick is how often the live view's clock is redrawn between polls.
const liveTick = time.Second

// Runs polls every target until it reaches a final status, the --timeout
// passes or ctx ends (Ctrl-C). Progress goes to stderr; at the end the
// verdict is decided and every report written. The error carries the
// contract's exit code. notStarted are starts that failed, reported with
// the runs. o must have been validated.
func Runs(ctx context.Context, d Deps, o Options, targets []RunTarget, notStarted ...verdict.Record) error {
	targets, unnamed := uniqueTargets(targets)
	notStarted = append(unnamed, notStarted...)
	o.warnExpired(d)
	o.lookup = startBaseline(ctx, d.Client, o, targets)
	loop := &poll.Loop{Clock: d.Clock, Interval: o.Interval, Timeout: o.Timeout}
	pulse := &heartbeat{every: o.Heartbeat, elapsed: loop.Elapsed}
	views, tickEvery := newViews(d.IO, d.Debug, len(targets), pulse)
	// One multiplexer carries the whole wait: the views and the early
	// evidence now, the reports of the end once the wait is over (finish).
	events := &report.Multiplexer{ErrOut: d.IO.ErrOut}
	events.Add(views...)
	d.Client = announceRetriesTo(events, d)
	var early *evidence.Reader
	if o.Evidence > 0 {
		// The failure story is read as the test cases end, so that it is
		// ready when the runs are; a signal calls it off with the wait.
		early = evidence.NewReader(ctx, d.Client, evidence.Options{})
		defer early.Close()
		events.Add(&earlyEvidence{reader: early, max: o.Evidence, read: map[string]bool{}})
	}
	rerun := d.Rerun
	if rerun == nil {
		rerun = d.Client.RerunRun
	}
	retries := retryPolicy{limit: o.RetryFailed, rerun: rerun, client: d.Client}
	states := watchRuns(ctx, loop, d.Client.WithRetries(0), events, tickEvery, o, retries, targets)
	polled := make([]*poll.Target, len(states))
	for i, s := range states {
		polled[i] = &s.poll
	}
	end, err := loop.Run(ctx, polled)
	if err != nil {
		// An error that ends the whole loop (a redirect elsewhere, a name
		// that does not resolve) still leaves every run's last known state
		// to report: the runs it cut off have it as their error.
		events.Notice("error: " + termtext.Sanitize(err.Error()))
	}
	return finish(ctx, d, o, append(records(states, end, ctx, err), notStarted...), early, events)
}

// announceRetriesTo is the wait's client, whose notes of a long pause
// before a retry (a Retry-After, from the polls or the evidence reads) are
// notices of the wait: the live view prints them above its line instead of
// through it.
func announceRetriesTo(events report.Reporter, d Deps) *api.Client {
	if d.Client.OnRetry == nil {
		return d.Client
	}
	c := *d.Client
	warning := d.IO.ErrStyles().Warning("warning:")
	c.OnRetry = func(p api.RetryPause) { events.Notice(warning + " " + termtext.SanitizeLine(p.String())) }
	return &c
}

// watchRuns makes a runState per target and wires the loop to the
// reporters.
func watchRuns(ctx context.Context, loop *poll.Loop, client *api.Client, events report.Reporter, tickEvery time.Duration, o Options, retries retryPolicy, targets []RunTarget) []*runState {
	states := make([]*runState, 0, len(targets))
	byTarget := make(map[*poll.Target]*runState, len(targets))
	now := loop.Clock.Now()
	for _, t := range targets {
		s := newRunState(t, now)
		s.vo, s.now, s.lookup = o.verdictOptions(), loop.Clock.Now, o.lookup
		s.retryLimit = retries.limit
		s.poll.Poll = func(pollCtx context.Context) poll.Outcome {
			if s.rerunning != nil {
				return s.rerunStarted(events)
			}
			d, o := fetchRun(pollCtx, client, s.target.ShortID)
			if pollCtx.Err() == nil { // an interrupted request says nothing
				s.notFound = api.IsNotFound(o.Err)
			}
			if o.Err != nil {
				return o
			}
			final := s.show(d, events, loop.Elapsed())
			// The rerun outlives this poll: it runs on the wait's context.
			if final && s.startRetry(ctx, retries) {
				return poll.Outcome{Until: s.rerunDone}
			}
			return poll.Outcome{Done: final, Sooner: s.pollSooner()}
		}
		states = append(states, s)
		byTarget[&s.poll] = s
	}
	loop.Retrying = func(t *poll.Target, err error) {
		// The streak is the run's state (the live line shows it until the
		// service answers again); the reporters are told it began.
		s := byTarget[t]
		s.retryingSince, s.retryWhy = loop.Elapsed(), retryReason(err)
		events.Retrying(s.progress(), loop.Elapsed(), err)
	}
	loop.GaveUp = func(t *poll.Target) { events.Notice("error: " + termtext.Sanitize(t.Err().Error())) }
	loop.TickEvery = tickEvery
	if loop.TickEvery > 0 {
		loop.Tick = func(elapsed time.Duration) { events.Tick(progressOf(states), elapsed) }
	}
	return states
}

// fetchRun reads a run with all its test cases.
func fetchRun(ctx context.Context, c *api.Client, id string) (*api.RunDetail, poll.Outcome) {
	d, err := c.GetRun(ctx, id, api.GetRunOptions{TestCases: "all"})
	if _, ok := errors.AsType[*api.InvalidIDError](err); ok {
		// The command checked the ids it was given: this one is the
		// service's (a start's or a rerun's answer), so it is the service
		// that failed, not the command line.
		err = &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf("the service gave it an id that cannot be sent: %w", err)}
	}
	if err != nil {
		return nil, poll.Failed(err)
	}
	if err := api.CheckRunDetail(d, id); err != nil {
		return nil, poll.Failed(err)
	}
	d.ShortID = cmp.Or(d.ShortID, id)
	return d, poll.Outcome{}
}

// uniqueTargets drops repeated runs, keeping the first (it may carry a URL
// and a creation time). A target without an id cannot be polled: it is a
// record of its own, with why, never dropped (a wait on no run is never a
// pass).
func uniqueTargets(targets []RunTarget) (out []RunTarget, unnamed []verdict.Record) {
	seen := map[string]bool{}
	for _, t := range targets {
		switch {
		case t.ShortID == "":
			unnamed = append(unnamed, verdict.Record{Plan: t.Plan, Err: &exitcode.Error{Code: exitcode.Service,
				Err: fmt.Errorf("the service gave no short id for the run of %s: it cannot be waited on", t.Plan.What())}})
		case !seen[t.ShortID]:
			seen[t.ShortID] = true
			out = append(out, t)
		}
	}
	return out, unnamed
}
