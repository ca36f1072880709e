package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// reply is one scripted answer of a fake service.
type reply struct {
	status     int
	retryAfter string
	body       string
	drop       bool // close the connection without answering
}

const (
	runningBody = `{"id":"x","shortId":"r1","status":"RUNNING","result":null,"runTestCases":[{"shortId":"r1-0","name":"A","status":"RUNNING"}]}`
	passedBody  = `{"id":"x","shortId":"r1","status":"COMPLETED","result":"PASSED","runTestCases":[{"shortId":"r1-0","name":"A","status":"COMPLETED","result":"PASSED","resultTitle":"fine"}]}`
)

var (
	running = reply{status: 200, body: runningBody}
	passed  = reply{status: 200, body: passedBody}
	err500  = reply{status: 500, body: `{"message":"boom"}`}
)

// scripted serves the replies in order, then repeats the last one, and
// points the env at itself.
func scripted(t *testing.T, e *cmdtest.Env, replies ...reply) func() int {
	t.Helper()
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		rep := replies[min(n, len(replies)-1)]
		n++
		mu.Unlock()
		if r.URL.Query().Get("testCases") != "all" {
			t.Errorf("request without testCases=all: %s", r.URL)
		}
		if rep.drop {
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
			return
		}
		if rep.retryAfter != "" {
			w.Header().Set("Retry-After", rep.retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		_, _ = w.Write([]byte(rep.body))
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	return func() int { mu.Lock(); defer mu.Unlock(); return n }
}

func slept(e *cmdtest.Env) time.Duration { d, _ := e.Clock.Slept(); return d }

func TestTransientFailuresBackOffWithJitterThenSucceed(t *testing.T) {
	e := cmdtest.New(t)
	html := reply{status: 200, body: "<html>proxy error</html>"}
	// The drop comes first: net/http silently retries a GET whose reused
	// connection was dropped, which would hide one failure from the wait.
	requests := scripted(t, e, reply{drop: true}, err500, reply{status: 503}, html, passed)
	before := slept(e)
	r := e.Run("run", "wait", "r1").Expect(t, 0)
	if requests() != 5 {
		t.Errorf("%d requests, want 5 (4 failures, 1 success, no hidden retries)", requests())
	}
	// Equal jitter over ceilings of 5, 10, 20 and 40 s.
	if d := slept(e) - before; d < 37500*time.Millisecond || d > 75*time.Second {
		t.Errorf("slept %s between retries, want 37.5s..75s", d)
	}
	if n := strings.Count(r.Stderr, "retrying"); n != 1 {
		t.Errorf("%d retry notices, want one per streak:\n%s", n, r.Stderr)
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	e := cmdtest.New(t)
	scripted(t, e, reply{status: 429, retryAfter: "30", body: `{"message":"slow down"}`}, passed)
	before := slept(e)
	e.Run("run", "wait", "r1").Expect(t, 0)
	if d := slept(e) - before; d != 30*time.Second {
		t.Errorf("slept %s, want the 30 s the server asked for", d)
	}
}

func TestTenFailuresInARowExit6(t *testing.T) {
	e := cmdtest.New(t)
	requests := scripted(t, e, err500)
	r := e.Run("run", "wait", "r1").Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr, "giving up after 10 failed requests in a row", "HTTP 500")
	if requests() != 10 {
		t.Errorf("%d requests, want 10", requests())
	}
}

func TestFailureStreakResetsOnSuccess(t *testing.T) {
	e := cmdtest.New(t)
	var script []reply
	for range 9 {
		script = append(script, err500)
	}
	script = append(script, running)
	for range 9 {
		script = append(script, err500)
	}
	requests := scripted(t, e, append(script, passed)...)
	e.Run("run", "wait", "r1", "--interval", "1s").Expect(t, 0)
	if requests() != 20 {
		t.Errorf("%d requests, want 20", requests())
	}
}

func TestEarly404MeansNotVisibleYet(t *testing.T) {
	e := cmdtest.New(t)
	nf := reply{status: 404, body: `{"message":"run r1 not found"}`}
	requests := scripted(t, e, nf, nf, passed)
	e.NoteStarted(t, "r1")
	e.Run("run", "wait", "r1").Expect(t, 0)
	if requests() != 3 {
		t.Errorf("%d requests, want 3", requests())
	}
}

func TestLate404Exits5(t *testing.T) {
	e := cmdtest.New(t)
	requests := scripted(t, e, reply{status: 404, body: `{"message":"run r1 not found"}`})
	e.NoteStarted(t, "r1")
	start := e.Clock.Now()
	r := e.Run("run", "wait", "r1").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "HTTP 404", "run r1 not found")
	// Polled at 0, 5, …, 25 s within the grace, and once more at 30 s.
	if requests() != 7 || e.ElapsedSince(start) != 30*time.Second {
		t.Errorf("%d requests over %s, want 7 over 30s", requests(), e.ElapsedSince(start))
	}
}

// The not-visible grace is for runs this machine just started: any other
// id the service does not know is not found at once, with no resume hint
// and no "see the error above" without an error above.
func TestUnknownRunIsNotFoundAtOnce(t *testing.T) {
	e := cmdtest.New(t)
	requests := scripted(t, e, reply{status: 404, body: `{"message":"run zz9999 not found"}`})
	start := e.Clock.Now()
	r := e.Run("run", "wait", "zz9999").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "HTTP 404", "run zz9999 not found")
	if requests() != 1 || e.ElapsedSince(start) != 0 {
		t.Errorf("%d requests over %s, want 1 at once", requests(), e.ElapsedSince(start))
	}
	if strings.Contains(r.Stderr, "resume") || strings.Contains(r.Stderr, "run wait zz9999") {
		t.Errorf("a resume hint for a run that does not exist:\n%s", r.Stderr)
	}
}

// Ctrl-C while a run just started is not visible yet: the summary says so,
// with no "see the error above" and no error above.
func TestInterruptWhileNotFoundYet(t *testing.T) {
	e := cmdtest.New(t)
	scripted(t, e, reply{status: 404, body: `{"message":"run r1 not found"}`})
	e.NoteStarted(t, "r1")
	ctx := cmdtest.CancelAt(e.Clock, e.Clock.Now().Add(10*time.Second))
	r := e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "wait", "r1").Expect(t, 130)
	cmdtest.Contains(t, "stderr", r.Stderr, "Run r1: not found yet when the wait was interrupted", "interrupted: run r1 not found yet.")
	if strings.Contains(r.Stderr, "see the error above") || strings.Contains(r.Stderr, "error:") {
		t.Errorf("an error that was never shown:\n%s", r.Stderr)
	}
}

func TestAuthFailureExits4AtOnce(t *testing.T) {
	e := cmdtest.New(t)
	requests := scripted(t, e, reply{status: 401, body: `{"message":"invalid key"}`})
	r := e.Run("run", "wait", "r1", "r2").Expect(t, 4)
	cmdtest.Contains(t, "stderr", r.Stderr, "401", "auth login")
	if requests() != 2 {
		t.Errorf("%d requests after a 401, want one per run", requests())
	}
}

// A 403 on one of several runs ends only that run's wait: the other keeps
// its verdict, and the reports are written with both.
func TestRejectedRunDoesNotEndTheOthers(t *testing.T) {
	e := cmdtest.New(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/r0"):
			w.WriteHeader(403)
			_, _ = w.Write([]byte(`{"message":"Invalid token or organization suspended"}`))
		case r.URL.Path == "/v1/run":
			_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":20,"offset":0}`))
		default:
			_, _ = w.Write([]byte(passedBody))
		}
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	junit := e.Dir + "/both.xml"
	r := e.Run("run", "wait", "r0", "r1", "--junit", junit).Expect(t, 4)
	cmdtest.Contains(t, "stderr", r.Stderr, "403", "Run r1: COMPLETED · PASSED", "JUnit report written")
	if doc := cmdtest.ReadJUnitFile(t, junit); len(doc.Suites) != 2 || doc.Errors != 1 || doc.Tests != 2 {
		t.Errorf("report: %+v", doc)
	}
}

func TestFaultInjectionStillReachesTheVerdict(t *testing.T) {
	for plan, code := range map[string]int{sandbox.PlanFailing: 1, sandbox.PlanPassing: 0, sandbox.PlanErroring: 3} {
		t.Run(plan, func(t *testing.T) {
			e := cmdtest.New(t)
			id := e.StartRun(t, plan)
			e.Sandbox.Server.SetFaultRate(0.5)
			start := e.Clock.Now()
			e.Run("run", "wait", id, "--interval", "1s", "-o", "json").Expect(t, code)
			faults := e.Sandbox.Server.Stats().FaultsInjected
			if faults == 0 {
				t.Fatal("no fault was injected; the test proves nothing")
			}
			cmdtest.CheckBudget(t, e.Requests(cmdtest.GetRun), e.ElapsedSince(start), time.Second, faults)
		})
	}
}
