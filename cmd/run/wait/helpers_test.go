package wait_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/sandbox"
)

const getRun = "GET /v1/run/{shortId}"

// startRun creates a run in the env's sandbox directly through the API, so
// these tests depend on nothing but the wait.
func startRun(t *testing.T, e *cmdtest.Env, plan string) string {
	t.Helper()
	c := &api.Client{BaseURL: e.Getenv("TESTCTL_BASE_URL"), APIKey: sandbox.ProjectKey, Clock: e.Clock}
	resp, err := c.StartRun(context.Background(), api.StartRunRequest{TestPlanShortID: plan})
	if err != nil {
		t.Fatalf("starting %s: %v", plan, err)
	}
	return resp.Run.ShortID
}

// elapsedSince is how much fake time passed since start.
func elapsedSince(e *cmdtest.Env, start time.Time) time.Duration { return e.Clock.Now().Sub(start) }

// checkBudget asserts the wait never polled more often than asked: at most
// one request per interval of elapsed time, plus the first, plus retries.
func checkBudget(t *testing.T, requests int, elapsed, interval time.Duration, retries int) {
	t.Helper()
	if budget := int(elapsed/interval) + 1 + retries; requests > budget {
		t.Errorf("%d requests in %s at %s intervals (+%d retries): budget %d", requests, elapsed, interval, retries, budget)
	}
}

// clockCancelCtx is cancelled once the fake clock reaches at: a Ctrl-C in
// the middle of a wait, without any real time passing.
type clockCancelCtx struct {
	context.Context
	clk  *clock.Fake
	at   time.Time
	once sync.Once
	done chan struct{}
	err  error
}

func cancelAt(clk *clock.Fake, at time.Time) *clockCancelCtx {
	return &clockCancelCtx{Context: context.Background(), clk: clk, at: at, done: make(chan struct{}), err: context.Canceled}
}

// terminateAt is cancelAt for a SIGTERM: context.Cause of a context that
// is not the standard library's is its Err, which here is both Canceled
// and cmdutil.ErrTerminated, as cmdutil.SignalContext's would be.
func terminateAt(clk *clock.Fake, at time.Time) *clockCancelCtx {
	c := cancelAt(clk, at)
	c.err = errors.Join(context.Canceled, cmdutil.ErrTerminated)
	return c
}

func (c *clockCancelCtx) reached() bool {
	if c.clk.Now().Before(c.at) {
		return false
	}
	c.once.Do(func() { close(c.done) })
	return true
}

func (c *clockCancelCtx) Done() <-chan struct{} {
	c.reached()
	return c.done
}

func (c *clockCancelCtx) Err() error {
	if c.reached() {
		return c.err
	}
	return nil
}
