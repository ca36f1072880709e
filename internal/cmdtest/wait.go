package cmdtest

import (
	"context"
	"encoding/xml"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/sandbox"
	"github.com/testctl/testctl/pkg/startedruns"
)

// The helpers of the tests of waiting commands: cmd/run/wait's and the
// wait's fault tests in e2e.

// GetRun is the route a wait polls.
const GetRun = "GET /v1/run/{shortId}"

// StartRun creates a run of plan in the env's sandbox directly through the
// API, so a test of the wait depends on nothing but the wait.
func (e *Env) StartRun(t testing.TB, plan string) string {
	t.Helper()
	c := &api.Client{BaseURL: e.Getenv("TESTCTL_BASE_URL"), APIKey: sandbox.ProjectKey, Clock: e.Clock}
	resp, err := c.StartRun(context.Background(), api.StartRunRequest{TestPlanShortID: plan})
	if err != nil {
		t.Fatalf("starting %s: %v", plan, err)
	}
	return resp.Run.ShortID
}

// NoteStarted keeps id in the local record of started runs, as `run start`
// on this machine would have, at the current fake time.
func (e *Env) NoteStarted(t testing.TB, id string) {
	t.Helper()
	run := startedruns.Run{Service: e.Getenv("TESTCTL_BASE_URL"), ShortID: id, CreatedAt: e.Clock.Now()}
	if err := startedruns.ForEnv(e.Getenv).Add(run); err != nil {
		t.Fatal(err)
	}
}

// ElapsedSince is how much fake time passed since start.
func (e *Env) ElapsedSince(start time.Time) time.Duration { return e.Clock.Now().Sub(start) }

// CheckBudget asserts the wait never polled more often than asked: at most
// one request per interval of elapsed time, plus the first, plus retries.
func CheckBudget(t testing.TB, requests int, elapsed, interval time.Duration, retries int) {
	t.Helper()
	if budget := int(elapsed/interval) + 1 + retries; requests > budget {
		t.Errorf("%d requests in %s at %s intervals (+%d retries): budget %d", requests, elapsed, interval, retries, budget)
	}
}

// ClockCancelCtx is cancelled once the fake clock reaches a time: a Ctrl-C
// in the middle of a wait, without any real time passing.
type ClockCancelCtx struct {
	context.Context
	clk  *clock.Fake
	at   time.Time
	once sync.Once
	done chan struct{}
	err  error
}

// CancelAt is a context cancelled once clk reaches at.
func CancelAt(clk *clock.Fake, at time.Time) *ClockCancelCtx {
	return &ClockCancelCtx{Context: context.Background(), clk: clk, at: at, done: make(chan struct{}), err: context.Canceled}
}

// TerminateAt is CancelAt for a SIGTERM: context.Cause of a context that
// is not the standard library's is its Err, which here is both Canceled
// and cmdutil.ErrTerminated, as cmdutil.SignalContext's would be.
func TerminateAt(clk *clock.Fake, at time.Time) *ClockCancelCtx {
	c := CancelAt(clk, at)
	c.err = errors.Join(context.Canceled, cmdutil.ErrTerminated)
	return c
}

func (c *ClockCancelCtx) reached() bool {
	if c.clk.Now().Before(c.at) {
		return false
	}
	c.once.Do(func() { close(c.done) })
	return true
}

// Done is closed once the clock reaches the time.
func (c *ClockCancelCtx) Done() <-chan struct{} {
	c.reached()
	return c.done
}

// Err is the cancellation once the clock reaches the time, nil before.
func (c *ClockCancelCtx) Err() error {
	if c.reached() {
		return c.err
	}
	return nil
}

// ReadJUnitFile reads the JUnit report at path, failing the test when it
// is not XML.
func ReadJUnitFile(t testing.TB, path string) report.JUnitSuites {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc report.JUnitSuites // the shape the report is written in
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("invalid JUnit XML: %v\n%s", err, data)
	}
	return doc
}
