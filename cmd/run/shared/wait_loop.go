package shared

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
)

// waitEnd says why the polling loop stopped.
type waitEnd int

const (
	endAllDone waitEnd = iota
	endTimeout
	endInterrupted
)

// liveTick is how often the live view's clock is redrawn between polls.
const liveTick = time.Second

// waiter polls several runs round-robin from one goroutine. One goroutine
// is enough (a poll is one small GET) and keeps time honest: every wait is
// a single Sleep on the injected clock, so with a fake clock simulated time
// passes exactly as fast as the wait asks, never twice over.
type waiter struct {
	opts   WaitOptions
	client *api.Client // retries off: the waiter paces its own
	clk    clock.Clock
	view   progressView
	live   bool
	states []*runState
	start  time.Time
	// deadline is --timeout on the injected clock rather than a context
	// deadline, which would run on the wall clock.
	deadline time.Time
	jitter   func() float64
}

func newWaiter(o WaitOptions, client *api.Client, clk clock.Clock, view progressView, targets []WaitTarget) *waiter {
	start := clk.Now()
	w := &waiter{opts: o, client: client.WithRetries(0), clk: clk, view: view, start: start,
		deadline: start.Add(o.Timeout), jitter: rand.Float64}
	_, w.live = view.(*liveView)
	for _, t := range targets {
		w.states = append(w.states, newRunState(t, start))
	}
	return w
}

// loop polls until every run is done, the deadline passes or ctx ends. A
// non-nil error ends the whole wait at once (a rejected key, a broken
// configuration): no other run could fare better.
func (w *waiter) loop(ctx context.Context) (waitEnd, error) {
	for {
		next := w.nextDue()
		if next == nil {
			return endAllDone, nil
		}
		now := w.clk.Now()
		if !now.Before(w.deadline) {
			return endTimeout, nil
		}
		if now.Before(next.nextAt) {
			wake := minTime(next.nextAt, w.deadline)
			if w.live {
				w.view.refresh(w.states, now.Sub(w.start))
				wake = minTime(wake, now.Add(liveTick))
			}
			if err := w.clk.Sleep(ctx, wake.Sub(now)); err != nil {
				return endInterrupted, nil
			}
			continue
		}
		if err := w.poll(ctx, next); err != nil {
			if ctx.Err() != nil {
				return endInterrupted, nil
			}
			return endAllDone, err
		}
	}
}

// nextDue is the unfinished run whose poll is due first.
func (w *waiter) nextDue() *runState {
	var best *runState
	for _, s := range w.states {
		if !s.done && (best == nil || s.nextAt.Before(best.nextAt)) {
			best = s
		}
	}
	return best
}

// pending returns the runs that were still being waited for.
func (w *waiter) pending() []*runState {
	var out []*runState
	for _, s := range w.states {
		if !s.done {
			out = append(out, s)
		}
	}
	return out
}

func (w *waiter) elapsed() time.Duration { return w.clk.Now().Sub(w.start) }

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
