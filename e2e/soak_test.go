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
