package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

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
// which requests the sandbox processed and which it failed on purpose. The
// sandbox fails most requests before handling them, which a client may
// safely retry, and loses the answer of some starts it carried out; the
// starts ledger in front of it also loses the answer of every fourth
// POST /v1/run the sandbox did answer, the case where a retry would start a
// second run.
func soakServer(t *testing.T, e *cmdtest.Env, rate float64) (*sandbox.Server, *recorder, *startLedger) {
	t.Helper()
	sb := sandbox.New(sandbox.Options{Clock: e.Clock, FaultRate: rate, Latency: time.Millisecond, Seed: 7})
	ledger := &startLedger{next: sb, sandbox: sb, loseEvery: 4}
	rec := newRecorder(ledger, func(r *http.Request) string {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/run/") {
			return "GET " + strings.TrimPrefix(r.URL.Path, "/v1/run/")
		}
		return ""
	})
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	return sb, rec, ledger
}

// startLedger counts the POST /v1/run that reach the sandbox, split into
// those it processed (a run was created, answered or not) and those it
// failed on purpose, and loses the answer of every loseEvery-th answered
// one: alternately a dropped connection and a 502, as a proxy that failed
// after forwarding. It tells a created run from the sandbox's stats, which
// holds because the soak sends one POST /v1/run at a time.
type startLedger struct {
	next      http.Handler
	sandbox   *sandbox.Server
	loseEvery int

	mu                                sync.Mutex
	arrived, processed, faulted, lost int
	throttled                         int
}

func (l *startLedger) snapshot() (processed, lost int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.processed, l.lost
}

func (l *startLedger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/run" {
		l.next.ServeHTTP(w, r)
		return
	}
	l.mu.Lock()
	l.arrived++
	l.mu.Unlock()
	answer := httptest.NewRecorder()
	runsBefore := l.sandbox.Stats().RunsStarted
	dropped := serveCaptured(l.next, answer, r)
	created := l.sandbox.Stats().RunsStarted > runsBefore
	if dropped || (created && answer.Code != http.StatusOK) {
		l.mu.Lock()
		if created { // the sandbox carried it out, then lost the answer
			l.processed++
			l.lost++
		} else {
			l.faulted++
		}
		l.mu.Unlock()
		if dropped {
			panic(http.ErrAbortHandler) // drop the real connection too
		}
		relay(w, answer)
		return
	}
	l.mu.Lock()
	lose := false
	switch {
	case answer.Code == http.StatusOK:
		l.processed++
		if l.processed%l.loseEvery == 0 {
			l.lost++
			lose = true
		}
	case isFault(answer.Code):
		l.faulted++
		if answer.Code == http.StatusTooManyRequests {
			l.throttled++
		}
	}
	lostNo := l.lost
	l.mu.Unlock()
	if lose {
		if lostNo%2 == 1 {
			panic(http.ErrAbortHandler)
		}
		writeJSON(w, http.StatusBadGateway, `{"message":"upstream connection reset"}`)
		return
	}
	relay(w, answer)
}

func relay(w http.ResponseWriter, answer *httptest.ResponseRecorder) {
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
	waits, right, gaveUp int
	started, refused     int
	lostAnswers          int
	startedIDs           map[string]bool
}

// TestFaultSoak waits on runs of every verdict plan while the sandbox
// fails 30% of all requests (500, 502, 503, 429 with Retry-After, dropped
// connections), and proves two things: every wait ends with the right
// verdict and exit code, and no run is ever started twice because a POST
// was retried. A start whose POST failed may fail (exit 6): that is the
// safe outcome, and it is counted.
func TestFaultSoak(t *testing.T) {
	e := cmdtest.New(t)
	sb, rec, ledger := soakServer(t, e, 0.3)
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
	// start runs one `run start` and checks, from the ledger, that it
	// made the sandbox create at most one run, and exactly the one it
	// reports.
	start := func(t *testing.T, c soakCase, extra ...string) (string, cmdtest.Result, bool) {
		t.Helper()
		processedBefore, lostBefore := ledger.snapshot()
		r := e.Run(append([]string{"run", "start", "--plan", c.plan, "-q"}, extra...)...)
		checkNoPanic(t, r)
		processedAfter, lostAfter := ledger.snapshot()
		created, lost := processedAfter-processedBefore, lostAfter-lostBefore
		if created > 1 {
			t.Fatalf("one run start of %s created %d runs: a POST was repeated after the service acted on it\nstderr:\n%s",
				c.plan, created, r.Stderr)
		}
		reported := strings.Contains(r.Stderr, "Started run")
		switch {
		case reported && (created != 1 || lost != 0):
			t.Fatalf("run start of %s reported a run, but %d were created and %d answers lost\nstderr:\n%s", c.plan, created, lost, r.Stderr)
		case !reported && r.Code != 6:
			t.Fatalf("start of %s failed with exit %d, want 6 for a failed POST\nstderr:\n%s", c.plan, r.Code, r.Stderr)
		case !reported && !strings.Contains(r.Stderr, "POST /v1/run"):
			t.Errorf("a failed start does not name the failed request:\n%s", r.Stderr)
		case !reported:
			tally.refused++
			tally.lostAnswers += lost
			return "", r, false
		}
		id := strings.TrimSpace(r.Stdout)
		if id == "" || tally.startedIDs[id] {
			t.Fatalf("start of %s printed short id %q (seen before: %v)", c.plan, id, tally.startedIDs[id])
		}
		tally.startedIDs[id] = true
		tally.started++
		return id, r, true
	}

	// Every case is waited on three times, however many starts fail.
	const waitsPerCase = 3
	finished := map[int][]string{} // exit code -> runs that ended with it
	for _, c := range soakCases {
		for waited, attempts := 0, 0; waited < waitsPerCase; attempts++ {
			if attempts == 20 {
				t.Fatalf("20 starts of %s, only %d succeeded", c.plan, waited)
			}
			id, _, ok := start(t, c)
			if !ok {
				continue
			}
			waited++
			r := e.Run(append([]string{"run", "wait", id, "--interval", "1s"}, c.flags...)...)
			checkWait(t, c, r, id)
			if r.Code == c.code && c.code != 7 {
				finished[c.code] = append(finished[c.code], id)
			}
		}
	}
	// run start --wait: the same verdicts through the other entry point.
	for _, c := range soakCases {
		id, r, ok := start(t, c, append([]string{"--wait", "--interval", "1s"}, c.flags...)...)
		if ok {
			checkWait(t, c, r, id)
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
		r := e.Run(append([]string{"run", "wait", "--interval", "1s"}, several...)...)
		checkWait(t, soakCase{plan: "three runs", code: 3}, r, several...)
	}

	// The whole ledger: every run the sandbox created is one testctl
	// reported or one whose answer was lost, by the sandbox or the ledger
	// (and testctl said it failed); every other POST was failed by the
	// sandbox before it acted.
	st := sb.Stats()
	ledger.mu.Lock()
	arrived, processed, faulted, lost, throttled := ledger.arrived, ledger.processed, ledger.faulted, ledger.lost, ledger.throttled
	ledger.mu.Unlock()
	if st.RunsStarted != processed || processed != tally.started+lost {
		t.Errorf("the sandbox created %d runs from %d processed POSTs; testctl reported %d starts and %d answers were lost: a run was started twice",
			st.RunsStarted, processed, tally.started, lost)
	}
	if n := st.Requests["POST /v1/run"]; n != arrived || arrived != processed+faulted {
		t.Errorf("%d POSTs reached the sandbox, %d the ledger: %d processed + %d faulted", n, arrived, processed, faulted)
	}
	if lost == 0 || tally.lostAnswers != lost {
		t.Errorf("%d answers lost after processing, %d seen by refused starts", lost, tally.lostAnswers)
	}

	polls := 0
	for id := range tally.startedIDs {
		polls += len(rec.statuses("GET " + id))
	}
	if polls < 300 || st.FaultsInjected < 100 || tally.started < len(soakCases) {
		t.Errorf("soak too small to prove anything: %d polls, %d faults, %d runs", polls, st.FaultsInjected, tally.started)
	}
	fmt.Printf("soak: fault rate 0.3, %d requests, %d faults injected %v, answers lost by the sandbox %v\n",
		sumRequests(st), st.FaultsInjected, st.Faults, st.LostAnswers)
	fmt.Printf("soak: %d polls of %d runs; verdicts right %d/%d (%d gave up after 10 faults in a row, as documented)\n",
		polls, tally.started, tally.right, tally.waits, tally.gaveUp)
	fmt.Printf("soak: starts %d, refused starts %d (exit 6); POST /v1/run %d = %d processed + %d faulted before processing (%d were 429, retried)\n",
		tally.started, tally.refused, arrived, processed, faulted, throttled)
	fmt.Printf("soak: %d answers lost after processing, never retried; runs created %d = %d reported + %d lost; started twice 0\n",
		lost, st.RunsStarted, tally.started, lost)
}

func sumRequests(st sandbox.Stats) int {
	n := 0
	for _, c := range st.Requests {
		n += c
	}
	return n
}

// TestStartIsNeverRepeatedOnceReceived: whatever goes wrong after the
// service received a POST /v1/run (an error status, a dropped connection,
// an answer slower than --http-timeout), testctl must not send it again,
// because the service may have started the run. A 429 means the service
// did not act, so that one is retried.
func TestStartIsNeverRepeatedOnceReceived(t *testing.T) {
	const ok = `{"success":true,"run":{"id":"run_1","shortId":"r1","url":"https://app.invalid/runs/r1","testCount":1}}`
	tests := []struct {
		name    string
		answers []func(w http.ResponseWriter) // one per POST; the last repeats
		code    int
		posts   int
	}{
		{"500", []func(http.ResponseWriter){status(500)}, 6, 1},
		{"502", []func(http.ResponseWriter){status(502)}, 6, 1},
		{"503", []func(http.ResponseWriter){status(503)}, 6, 1},
		{"504", []func(http.ResponseWriter){status(504)}, 6, 1},
		{"dropped connection", []func(http.ResponseWriter){func(http.ResponseWriter) { panic(http.ErrAbortHandler) }}, 6, 1},
		{"answer past --http-timeout", []func(http.ResponseWriter){func(w http.ResponseWriter) {
			time.Sleep(600 * time.Millisecond)
			writeJSON(w, 200, ok)
		}}, 6, 1},
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
