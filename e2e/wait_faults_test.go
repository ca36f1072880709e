package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
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

// soakCase is one verdict plan and what waiting on it must end with.
type soakCase struct {
	plan  string
	flags []string
	code  int
}

var soakCases = []soakCase{
	{"pln-passing_sandbox", nil, 0},
	{"pln-failing_sandbox", nil, 1},
	{"pln-erroring_sandbox", nil, 3},
	{"pln-cancelled_sandbox", nil, 3},
	{"pln-skipped_sandbox", nil, 0},
	{"pln-skipped_sandbox", []string{"--fail-on-skipped"}, 1},
	{"pln-slow_sandbox", []string{"--timeout", "2m"}, 7},
}

// soakServer is a sandbox injecting faults, behind a recorder that sees
// each answer to a run's polls. The sandbox fails most requests before
// handling them, and loses the answer of some starts it carried out; the
// proxy in front of it also loses the answer of every fourth POST /v1/run
// the sandbox carried out and answered (alternately a dropped connection
// and a 502, as a proxy that failed after forwarding), the case where
// sending the request again would start a second run.
func soakServer(t *testing.T, e *cmdtest.Env, rate float64) (*sandbox.Server, *recorder, *answerLoser) {
	t.Helper()
	sb := sandbox.New(sandbox.Options{Clock: e.Clock, FaultRate: rate, Latency: time.Millisecond, Seed: 7})
	loser := &answerLoser{next: sb, sandbox: sb, every: 4}
	rec := newRecorder(loser, func(r *http.Request) string {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/run/") {
			return "GET " + strings.TrimPrefix(r.URL.Path, "/v1/run/")
		}
		return ""
	})
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	return sb, rec, loser
}

// answerLoser loses the answer of every every-th POST /v1/run that created
// a run and was answered. It tells a created run from the sandbox's stats,
// which holds because the soak sends one POST /v1/run at a time.
type answerLoser struct {
	next    http.Handler
	sandbox *sandbox.Server
	every   int

	mu             sync.Mutex
	answered, lost int
}

func (l *answerLoser) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/run" {
		l.next.ServeHTTP(w, r)
		return
	}
	before := l.sandbox.Stats().RunsStarted
	answer := httptest.NewRecorder()
	if dropped := serveCaptured(l.next, answer, r); dropped {
		panic(http.ErrAbortHandler) // drop the real connection too
	}
	l.mu.Lock()
	lose := false
	if answer.Code == http.StatusOK && l.sandbox.Stats().RunsStarted > before {
		l.answered++
		if lose = l.answered%l.every == 0; lose {
			l.lost++
		}
	}
	lostNo := l.lost
	l.mu.Unlock()
	switch {
	case lose && lostNo%2 == 1:
		panic(http.ErrAbortHandler)
	case lose:
		writeJSON(w, http.StatusBadGateway, `{"message":"upstream connection reset"}`)
		return
	}
	for k, vs := range answer.Header() {
		w.Header()[k] = vs
	}
	w.WriteHeader(answer.Code)
	_, _ = w.Write(answer.Body.Bytes())
}

// serveCaptured runs h into a recorder and reports whether h dropped the
// connection (the sandbox aborts the handler when it cannot hijack).
func serveCaptured(h http.Handler, w *httptest.ResponseRecorder, r *http.Request) (dropped bool) {
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			dropped = true
		}
	}()
	h.ServeHTTP(w, r)
	return false
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// soakTally counts what the soak saw.
type soakTally struct {
	waits, right, gaveUp           int
	starts, reported, failedStarts int
	reconciled, resent             int
	startedIDs                     map[string]bool
}

// TestFaultSoak starts every verdict plan with `run start --wait` while
// the sandbox fails 30% of all requests (500, 502, 503, 429 with
// Retry-After, dropped connections) and answers of starts it carried out
// are lost, and proves two things: every wait ends with the right verdict
// and exit code, and every start creates exactly the run it reports: a
// lost answer is reconciled (the run adopted) or, when no run appeared,
// the start sent once more, never doubled.
func TestFaultSoak(t *testing.T) {
	e := cmdtest.New(t)
	sb, rec, loser := soakServer(t, e, 0.3)
	tally := &soakTally{startedIDs: map[string]bool{}}

	// checkWait asserts a wait's code. Exit 6 after ten faults in a row on
	// the run's own polls is the documented give-up, not a wrong verdict:
	// the recorder tells which.
	checkWait := func(t *testing.T, c soakCase, r cmdtest.Result, ids ...string) {
		t.Helper()
		checkNoPanic(t, r)
		tally.waits++
		gaveUp := false
		for _, id := range ids {
			gaveUp = gaveUp || longestFaultStreak(rec.statuses("GET "+id)) >= 10
		}
		switch {
		case r.Code == c.code:
			tally.right++
		case r.Code == 6 && gaveUp:
			tally.gaveUp++
		default:
			t.Errorf("%s (runs %v) %v: exit %d, want %d\nstderr:\n%s", c.plan, ids, c.flags, r.Code, c.code, r.Stderr)
		}
	}
	// start runs one `run start --wait` and checks, from the sandbox's
	// stats, that it created exactly the run it reports, or none when it
	// failed.
	start := func(t *testing.T, c soakCase) (string, cmdtest.Result, bool) {
		t.Helper()
		before := sb.Stats().RunsStarted
		// --evidence 0: the evidence's reads, several at once, would make
		// the order of requests (and so which ones the seed faults) vary
		// from run to run; the soak is of starts, polls and verdicts.
		r := e.Run(append([]string{"run", "start", "--plan", c.plan, "-q", "--wait", "--interval", "1s", "--evidence", "0"}, c.flags...)...)
		checkNoPanic(t, r)
		created := sb.Stats().RunsStarted - before
		tally.starts++
		if strings.Contains(r.Stderr, "was created: using it") {
			tally.reconciled++
		}
		if strings.Contains(r.Stderr, "once more") {
			tally.resent++
		}
		reported := strings.Contains(r.Stderr, "Started run")
		switch {
		case reported && created != 1:
			t.Fatalf("run start of %s reported a run, but %d were created\nstderr:\n%s", c.plan, created, r.Stderr)
		case !reported && created != 0:
			t.Fatalf("run start of %s reported no run, but %d were created\nstderr:\n%s", c.plan, created, r.Stderr)
		case !reported && r.Code != 6:
			t.Fatalf("start of %s failed with exit %d, want 6 for a failed POST\nstderr:\n%s", c.plan, r.Code, r.Stderr)
		case !reported && !strings.Contains(r.Stderr, "POST /v1/run"):
			t.Errorf("a failed start does not name the failed request:\n%s", r.Stderr)
		case !reported:
			tally.failedStarts++
			return "", r, false
		}
		id := strings.TrimSpace(r.Stdout)
		if id == "" || tally.startedIDs[id] {
			t.Fatalf("start of %s printed short id %q (seen before: %v)", c.plan, id, tally.startedIDs[id])
		}
		tally.startedIDs[id] = true
		tally.reported++
		return id, r, true
	}

	// Every case is started and waited on three times, however many
	// starts fail.
	const waitsPerCase = 3
	finished := map[int][]string{} // exit code -> runs that ended with it
	for _, c := range soakCases {
		for waited, attempts := 0, 0; waited < waitsPerCase; attempts++ {
			if attempts == 20 {
				t.Fatalf("20 starts of %s, only %d succeeded", c.plan, waited)
			}
			id, r, ok := start(t, c)
			if !ok {
				continue
			}
			waited++
			checkWait(t, c, r, id)
			if r.Code == c.code && c.code != 7 {
				finished[c.code] = append(finished[c.code], id)
			}
		}
	}
	// Several runs at once exit with the largest of their codes.
	var several []string
	for _, code := range []int{0, 1, 3} {
		if ids := finished[code]; len(ids) > 0 {
			several = append(several, ids[0])
		}
	}
	if len(several) == 3 {
		r := e.Run(append([]string{"run", "wait", "--interval", "1s", "--evidence", "0"}, several...)...)
		checkWait(t, soakCase{plan: "three runs", code: 3}, r, several...)
	}

	st := sb.Stats()
	loser.mu.Lock()
	lost := loser.lost
	loser.mu.Unlock()
	if st.RunsStarted != tally.reported || len(tally.startedIDs) != tally.reported {
		t.Errorf("the sandbox created %d runs; testctl reported %d (%d distinct): a run was started twice or lost",
			st.RunsStarted, tally.reported, len(tally.startedIDs))
	}
	sandboxLost := 0
	for _, n := range st.LostAnswers {
		sandboxLost += n
	}
	if lost == 0 || sandboxLost == 0 || tally.reconciled < lost || tally.resent == 0 {
		t.Errorf("%d answers lost after a run was created (%d by the sandbox), %d starts reconciled, %d re-sent: the soak did not rehearse both",
			lost, sandboxLost, tally.reconciled, tally.resent)
	}
	polls := 0
	for id := range tally.startedIDs {
		polls += len(rec.statuses("GET " + id))
	}
	if polls < 300 || st.FaultsInjected < 100 || tally.reported < len(soakCases) {
		t.Errorf("soak too small to prove anything: %d polls, %d faults, %d runs", polls, st.FaultsInjected, tally.reported)
	}
	fmt.Printf("soak: fault rate 0.3, %d requests, %d faults injected %v, answers lost by the sandbox %v\n",
		sumRequests(st), st.FaultsInjected, st.Faults, st.LostAnswers)
	fmt.Printf("soak: %d polls of %d runs; verdicts right %d/%d (%d gave up after 10 faults in a row, as documented)\n",
		polls, tally.reported, tally.right, tally.waits, tally.gaveUp)
	fmt.Printf("soak: starts %d: %d reconciled (answer lost, run adopted), %d re-sent (no run appeared), %d failed (exit 6, nothing created); %d answers lost by the proxy\n",
		tally.starts, tally.reconciled, tally.resent, tally.failedStarts, lost)
	fmt.Printf("soak: runs created %d = runs reported %d; started twice 0\n", st.RunsStarted, tally.reported)
}

func sumRequests(st sandbox.Stats) int {
	n := 0
	for _, c := range st.Requests {
		n += c
	}
	return n
}

// TestLostStartIsSentOnceMoreAtMost: whatever goes wrong after the service
// received a POST /v1/run (an error status, a dropped connection, an
// answer slower than --http-timeout), testctl sends it again only after
// the run list showed no new run for the visibility delay, and never a
// third time, because the service may have started the run. A 429 means
// the service did not act: that one is simply retried.
func TestLostStartIsSentOnceMoreAtMost(t *testing.T) {
	const ok = `{"success":true,"run":{"id":"run_1","shortId":"r1","url":"https://app.invalid/runs/r1","testCount":1}}`
	tests := []struct {
		name    string
		answers []func(w http.ResponseWriter) // one per POST; the last repeats
		code    int
		posts   int
	}{
		{"500", []func(http.ResponseWriter){status(500)}, 6, 2},
		{"502", []func(http.ResponseWriter){status(502)}, 6, 2},
		{"503", []func(http.ResponseWriter){status(503)}, 6, 2},
		{"504", []func(http.ResponseWriter){status(504)}, 6, 2},
		{"dropped connection", []func(http.ResponseWriter){func(http.ResponseWriter) { panic(http.ErrAbortHandler) }}, 6, 2},
		{"answer past --http-timeout", []func(http.ResponseWriter){func(w http.ResponseWriter) {
			time.Sleep(600 * time.Millisecond)
			writeJSON(w, 200, ok)
		}}, 6, 2},
		{"500 then success", []func(http.ResponseWriter){status(500), func(w http.ResponseWriter) { writeJSON(w, 200, ok) }}, 0, 2},
		{"429 then success", []func(http.ResponseWriter){func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "1")
			writeJSON(w, 429, `{"message":"slow down"}`)
		}, func(w http.ResponseWriter) { writeJSON(w, 200, ok) }}, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := cmdtest.New(t)
			var mu sync.Mutex
			posts := 0
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					writeJSON(w, 200, `{"runs":[],"total":0,"limit":100,"offset":0}`) // no run ever shows
					return
				}
				mu.Lock()
				posts++
				answer := tt.answers[min(posts, len(tt.answers))-1]
				mu.Unlock()
				answer(w)
			}))
			t.Cleanup(srv.Close)
			e.Setenv("TESTCTL_BASE_URL", srv.URL)
			r := e.Run("run", "start", "--plan", "pln_x", "--http-timeout", "200ms")
			checkNoPanic(t, r)
			r.Expect(t, tt.code)
			mu.Lock()
			defer mu.Unlock()
			if posts != tt.posts {
				t.Errorf("%d POSTs reached the service, want %d", posts, tt.posts)
			}
		})
	}
}

func status(code int) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) { writeJSON(w, code, `{"message":"failed after receiving the request"}`) }
}

// A service gone for good during a wait: the policy is said once, as it
// is (retried with backoff, the run given up after 10 failures in a row),
// the give-up names it and prints the command that takes the wait up again,
// and nothing after it announces more retries: the reports' own reads of a
// service that has gone are not retried.
func TestServiceGoneDuringAWaitSaysOnePolicyAndHowToResume(t *testing.T) {
	e := cmdtest.New(t)
	var mu sync.Mutex
	polls, lists := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/run" {
			lists++
			w.WriteHeader(503)
			return
		}
		polls++
		if polls == 1 {
			_, _ = w.Write([]byte(runningBody))
			return
		}
		w.WriteHeader(503)
		_, _ = w.Write([]byte(`{"message":"gone"}`))
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "wait", "r1", "--junit", filepath.Join(e.Dir, "junit.xml")).Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr,
		"retrying with backoff; the wait gives this run up after 10 failed requests in a row, or at --timeout",
		"giving up after 10 failed requests in a row",
		"the service kept failing: run r1 still RUNNING. The run goes on; resume waiting with:\n  testctl run wait r1\n")
	if strings.Contains(r.Stderr, "the wait goes on until --timeout") || strings.Contains(r.Stderr, "(attempt ") {
		t.Errorf("a policy the give-up contradicts, or retries announced after it:\n%s", r.Stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	if lists > 1 {
		t.Errorf("the run list was asked %d times after the service had gone, want at most once", lists)
	}
}
