package poll

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/exitcode"
)

// End says why a Loop stopped.
type End int

const (
	// AllDone: every target ended or was given up.
	AllDone End = iota
	// TimedOut: the deadline passed first.
	TimedOut
	// Interrupted: the context ended first (Ctrl-C).
	Interrupted
)

// Loop polls targets from one goroutine. One is enough (a poll is one small
// GET) and keeps time honest: every wait is a single Sleep on the injected
// clock, so with a fake clock simulated time passes exactly as fast as the
// wait asks, never twice over.
type Loop struct {
	Clock    clock.Clock
	Interval time.Duration // between two polls of a target that answered
	// Timeout is measured on Clock rather than as a context deadline, which
	// would run on the wall clock. A poll that would fall after the deadline
	// is made at it instead, so the wait ends on the freshest answer.
	Timeout time.Duration

	// Retrying is told when a streak of transient failures begins: one
	// notice per streak, not one per retry.
	Retrying func(t *Target, err error)
	// GaveUp is told when a target is given up; t.Err() says why.
	GaveUp func(t *Target)
	// Tick, when set, is called before every sleep and at least every
	// TickEvery while sleeping (a live view redraws its clock).
	Tick      func(elapsed time.Duration)
	TickEvery time.Duration

	start, deadline time.Time
}

// Run polls targets until each is done, the deadline passes or ctx ends. A
// non-nil error ends the whole wait at once (a rejected key, a broken
// configuration): no other target could fare better.
func (l *Loop) Run(ctx context.Context, targets []*Target) (End, error) {
	l.start = l.Clock.Now()
	l.deadline = l.start.Add(l.Timeout)
	for _, t := range targets {
		t.nextAt = l.start
	}
	for {
		l.unpark(targets)
		next := nextDue(targets)
		if next == nil {
			p := slices.IndexFunc(targets, func(t *Target) bool { return !t.done && t.parked != nil })
			if p < 0 {
				return AllDone, nil
			}
			if end, stop := l.waitParked(ctx, targets, targets[p]); stop {
				return end, nil
			}
			continue
		}
		now := l.Clock.Now()
		if now.Before(next.nextAt) {
			if !now.Before(l.deadline) {
				return l.timedOut(targets), nil
			}
			if err := l.sleepUntil(ctx, now, next.nextAt); err != nil {
				return Interrupted, nil
			}
			continue
		}
		if err := l.poll(ctx, next, now); err != nil {
			switch {
			case ctx.Err() != nil:
				return Interrupted, nil
			case errors.Is(err, errPollPastDeadline):
				return l.timedOut(targets), nil
			}
			return AllDone, err
		}
	}
}

// Elapsed is how long the wait has lasted on the loop's clock.
func (l *Loop) Elapsed() time.Duration { return l.Clock.Now().Sub(l.start) }

// lastPollGrace is how long the poll made at the deadline may take: the
// wait ends on the freshest answer, and at most that long after --timeout.
const lastPollGrace = time.Second

// errNoAnswer is the failure of a poll the deadline cut off: the request
// was sent, and nothing came back in time.
var errNoAnswer = errors.New("the service did not answer")

// errPollPastDeadline is a poll cut off because the wait's deadline came.
var errPollPastDeadline = errors.New("the poll in flight when --timeout passed was cancelled")

// poll asks t once, on a context that expires when the wait's deadline
// comes (lastPollGrace after it for the poll made at the deadline), so no
// answer that never comes, or trickles in, outlasts --timeout. The deadline
// runs on the loop's clock and the request on the wall clock: the time left
// on the one becomes a timeout on the other, which a fake clock, whose
// deadline is far off in real time, never trips.
func (l *Loop) poll(ctx context.Context, t *Target, at time.Time) error {
	t.lastPoll = at
	left := l.deadline.Sub(at)
	if left <= 0 {
		left = lastPollGrace
	}
	pollCtx, cancel := context.WithTimeout(ctx, left)
	o := t.Poll(pollCtx)
	cancel()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case o.Err != nil && errors.Is(pollCtx.Err(), context.DeadlineExceeded):
		t.lastErr = errNoAnswer
		return errPollPastDeadline
	case o.Err != nil:
		return l.afterFailure(t, at, o)
	}
	t.answered, t.lastErr = true, nil
	if o.Done {
		t.done = true
		return nil
	}
	t.failures = 0
	if o.Until != nil {
		t.parked = o.Until
		return nil
	}
	next := at.Add(l.Interval)
	if t.resumeAt.After(at) {
		next = t.resumeAt // the poll after a sooner one keeps the schedule
	}
	t.resumeAt = time.Time{}
	if o.Sooner > 0 && o.Sooner < l.Interval {
		t.resumeAt, next = next, at.Add(o.Sooner)
	}
	l.schedule(t, next)
	return nil
}

// unpark makes a parked target whose channel closed due at once.
func (l *Loop) unpark(targets []*Target) {
	for _, t := range targets {
		if t.parked == nil {
			continue
		}
		select {
		case <-t.parked:
			t.parked, t.nextAt = nil, l.Clock.Now()
		default:
		}
	}
}

// waitParked waits, when every target left is parked, for the first to be
// released, the deadline or the end of ctx. The wait is on the wall clock:
// what parks a target runs on it too, so a fake clock must not race ahead
// while it does.
func (l *Loop) waitParked(ctx context.Context, targets []*Target, p *Target) (End, bool) {
	for {
		now := l.Clock.Now()
		if !now.Before(l.deadline) {
			return l.timedOut(targets), true
		}
		if l.Tick != nil {
			l.Tick(now.Sub(l.start))
		}
		select {
		case <-p.parked:
			return AllDone, false
		case <-ctx.Done():
			return Interrupted, true
		case <-time.After(parkedTick):
		}
	}
}

// parkedTick is how often a loop waiting on parked targets redraws and
// checks its deadline.
const parkedTick = 250 * time.Millisecond

// timedOut gives up, when the deadline passed, the targets the service
// never answered about and whose last poll failed: their code says the
// service failed (6), not that a run was still going (7) or a tunnel never
// got healthy (1). With no answer at all, nobody knows the run goes on.
func (l *Loop) timedOut(targets []*Target) End {
	for _, t := range targets {
		if !t.done && !t.answered && t.lastErr != nil {
			l.giveUp(t, &exitcode.Error{Code: exitcode.Service,
				Err: fmt.Errorf("%s: no status within %s: %w", t.Name, l.Timeout, t.lastErr)})
		}
	}
	return TimedOut
}

// schedule sets the target's next poll. A regular poll due after the
// deadline is made at the deadline, once; a retry keeps the delay it was
// given, as the server may have asked for it.
func (l *Loop) schedule(t *Target, at time.Time) {
	if t.failures == 0 && at.After(l.deadline) && t.lastPoll.Before(l.deadline) {
		at = l.deadline
	}
	t.nextAt = at
}

func (l *Loop) sleepUntil(ctx context.Context, now, due time.Time) error {
	d := min(due.Sub(now), l.deadline.Sub(now))
	if l.Tick != nil {
		l.Tick(now.Sub(l.start))
		if l.TickEvery > 0 {
			d = min(d, l.TickEvery)
		}
	}
	return l.Clock.Sleep(ctx, d)
}

// nextDue is the unfinished target whose poll is due first.
func nextDue(targets []*Target) *Target {
	var best *Target
	for _, t := range targets {
		if !t.done && t.parked == nil && (best == nil || t.nextAt.Before(best.nextAt)) {
			best = t
		}
	}
	return best
}
