package wait

import (
	"context"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/termtext"
)

// RunTarget is one run to wait for. CreatedAt is when this machine created
// the run (zero if it did not): a 404 within NotYetVisibleGrace of it means
// the run is not visible yet rather than missing; any other id's 404 is
// final.
type RunTarget struct {
	ShortID   string
	URL       string
	Plan      Plan
	CreatedAt time.Time
}

// liveTick is how often the live view's clock is redrawn between polls.
const liveTick = time.Second

// Runs polls every target until it reaches a final status, the --timeout
// passes or ctx ends (Ctrl-C). Progress goes to stderr; at the end the
// reports are written (see finish). The error carries the contract's exit
// code: the largest of the runs' codes, 7 on timeout, 130 on interruption;
// nil when every run passed.
func Runs(ctx context.Context, f *cmdutil.Factory, o Options, targets []RunTarget) error {
	targets = uniqueTargets(targets)
	if len(targets) == 0 && len(o.NotStarted) == 0 {
		return cmdutil.FlagErrorf("no run to wait for: give at least one run short id")
	}
	if err := o.Validate(); err != nil {
		return err
	}
	if err := o.ValidateInterval(f); err != nil {
		return err
	}
	out, client, err := f.OutputAndClient()
	if err != nil {
		return err
	}
	debug := (f.Globals != nil && f.Globals.Debug) || f.Getenv("TESTCTL_DEBUG") == "1"
	clk := f.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	loop := &Loop{Clock: clk, Interval: o.Interval, Timeout: o.Timeout}
	view := newProgressView(f.IOStreams, debug, len(targets), heartbeat{every: o.Heartbeat, elapsed: loop.Elapsed})
	rerun := o.Rerun
	if rerun == nil {
		rerun = client.RerunRun
	}
	retries := retryPolicy{limit: o.RetryFailed, now: clk.Now,
		rerun: func(ctx context.Context, id string) (*api.StartRunResponse, error) {
			return rerun(ctx, id, api.RerunRequest{FailedOnly: true})
		}}
	states := watchRuns(loop, client.WithRetries(0), view, o.FailOnSkipped, retries, targets)
	end, err := loop.Run(ctx, loopTargets(states))
	view.stop()
	if err != nil {
		return err
	}
	recs := append(records(states, end, cmdutil.InterruptCode(ctx)), o.NotStarted...)
	if o.FailOnFlaky {
		failFlaky(recs)
	}
	if o.JUnitFile != "" || f.Getenv("GITHUB_ACTIONS") == "true" {
		describeRuns(ctx, client, recs)
	}
	res := Resume{Timeout: o.Timeout}
	if f.Globals != nil {
		res.Args, res.Sandbox = f.Globals.ServiceArgs(), f.Globals.Sandbox
	}
	return finish(f.IOStreams, f.Getenv, out, o, end, res, recs)
}

// watchRuns makes a runState per target and wires the loop to the view.
func watchRuns(loop *Loop, client *api.Client, view progressView, failOnSkipped bool, retries retryPolicy, targets []RunTarget) []*runState {
	states := make([]*runState, 0, len(targets))
	byTarget := make(map[*Target]*runState, len(targets))
	now := loop.Clock.Now()
	for _, t := range targets {
		s := newRunState(t)
		s.justCreated = !t.CreatedAt.IsZero() && now.Sub(t.CreatedAt) < NotYetVisibleGrace
		// A run this machine started is known to exist: the start's answer
		// counts as one, so a silent service at --timeout is still a run
		// that goes on (7), not a service that never answered (6).
		s.poll.answered = !t.CreatedAt.IsZero()
		s.retryLimit = retries.limit
		s.poll.Poll = func(ctx context.Context) Outcome {
			d, o := fetchRun(ctx, client, s.target.ShortID)
			if ctx.Err() == nil { // an interrupted request says nothing
				s.notFound = api.IsNotFound(o.Err)
			}
			if o.Err != nil {
				return o
			}
			final := s.show(d, view, loop.Elapsed(), failOnSkipped)
			if final && s.retry(ctx, retries, view) {
				return Outcome{}
			}
			return Outcome{Done: final}
		}
		states = append(states, s)
		byTarget[&s.poll] = s
	}
	loop.Retrying = func(t *Target, err error) { view.retrying(byTarget[t], loop.Elapsed(), err) }
	loop.GaveUp = func(t *Target) { view.notice("error: " + termtext.Sanitize(t.Err().Error())) }
	switch v := view.(type) {
	case *liveView:
		loop.Tick = func(elapsed time.Duration) { view.refresh(states, elapsed) }
		loop.TickEvery = liveTick
	case *plainView:
		if v.pulse.every > 0 {
			loop.Tick = func(elapsed time.Duration) { view.refresh(states, elapsed) }
			loop.TickEvery = v.pulse.every
		}
	}
	return states
}

func loopTargets(states []*runState) []*Target {
	out := make([]*Target, len(states))
	for i, s := range states {
		out[i] = &s.poll
	}
	return out
}

// fetchRun reads a run with all its test cases.
func fetchRun(ctx context.Context, c *api.Client, id string) (*api.RunDetail, Outcome) {
	d, err := c.GetRun(ctx, id, api.GetRunOptions{TestCases: "all"})
	if err != nil {
		return nil, Failed(err)
	}
	if err := CheckRunDetail(d, id); err != nil {
		return nil, Failed(err)
	}
	if d.ShortID == "" {
		d.ShortID = id
	}
	return d, Outcome{}
}

// uniqueTargets drops repeated runs, keeping the first (it may carry a URL
// and a creation time).
func uniqueTargets(targets []RunTarget) []RunTarget {
	seen := map[string]bool{}
	var out []RunTarget
	for _, t := range targets {
		if t.ShortID == "" || seen[t.ShortID] {
			continue
		}
		seen[t.ShortID] = true
		out = append(out, t)
	}
	return out
}

// failFlaky fails the runs with a test case that passed only on a retry
// (--fail-on-flaky).
func failFlaky(recs []Record) {
	for i := range recs {
		if len(recs[i].Flaky()) > 0 {
			recs[i].Code = max(recs[i].Code, cmdutil.ExitFailed)
		}
	}
}
