package e2e_test

import (
	"context"
	"encoding/xml"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
	"github.com/testctl/testctl/pkg/startedruns"
)

// The helpers of cmd/run/wait's tests that the wait's fault tests need too.

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

// noteStarted keeps id in the local record of started runs, as `run start`
// on this machine would have, at the current fake time.
func noteStarted(t *testing.T, e *cmdtest.Env, id string) {
	t.Helper()
	run := startedruns.Run{Service: e.Getenv("TESTCTL_BASE_URL"), ShortID: id, CreatedAt: e.Clock.Now()}
	if err := startedruns.ForEnv(e.Getenv).Add(run); err != nil {
		t.Fatal(err)
	}
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

// junitDoc is the part of a JUnit report these tests read back.
type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name       string `xml:"name,attr"`
		Time       string `xml:"time,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Error     *struct {
				Type    string `xml:"type,attr"`
				Message string `xml:"message,attr"`
			} `xml:"error"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
			Flaky []struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"flakyFailure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnitFile(t *testing.T, path string) junitDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("invalid JUnit XML: %v\n%s", err, data)
	}
	return doc
}
