package wait_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
)

// scriptedRun is a service with one run, r1, whose detail changes at each
// poll as the script says. It notes every request in order. Before it gives
// a poll's answer it waits for the log requests the script expects by then
// (a guard of a few seconds: a request that never comes fails the test),
// so that what a wait sends while the run goes on is ordered against the
// polls on any machine: the fake clock runs ahead of the requests in flight.
type scriptedRun struct {
	t     *testing.T
	clock func() time.Time
	steps []scriptStep

	mu       sync.Mutex
	changed  *sync.Cond
	log      []string    // "poll RUNNING", "logs r1-1 network", "issues"
	pollTime []time.Time // the fake clock at each poll
	logs     int
}

type scriptStep struct {
	status, result string           // the run's
	cases          []map[string]any // its test cases
	logsBefore     int              // log requests that must have come before this answer
	failWith       int              // answer this poll with this HTTP status instead
}

func tc(id, status, result, title string) map[string]any {
	return map[string]any{"id": "id-" + id, "shortId": id, "name": "Case " + id, "status": status, "result": result, "resultTitle": title}
}

func newScriptedRun(t *testing.T, e *cmdtest.Env, steps ...scriptStep) *scriptedRun {
	s := &scriptedRun{t: t, clock: e.Clock.Now, steps: steps}
	s.changed = sync.NewCond(&s.mu)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	return s
}

func (s *scriptedRun) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasPrefix(r.URL.Path, "/v1/run-test-case/"):
		id := strings.Split(strings.TrimPrefix(r.URL.Path, "/v1/run-test-case/"), "/")[0]
		kind := r.URL.Query().Get("kind")
		s.note(fmt.Sprintf("logs %s %s", id, kind), func() { s.logs++ })
		body := map[string]any{"runTestCaseShortId": id, "kind": kind, "totalMatched": 0, "returned": 0}
		if kind == "network" {
			body["totalMatched"], body["returned"] = 1, 1
			body["network"] = []any{map[string]any{"method": "POST", "url": "https://shop.example/api/pay", "statusCode": 502}}
		}
		_ = json.NewEncoder(w).Encode(body)
	case r.URL.Path == "/v1/run/r1" && r.URL.Query().Get("issues") == "true":
		s.note("issues", nil)
		last := s.steps[len(s.steps)-1]
		_ = json.NewEncoder(w).Encode(map[string]any{"shortId": "r1", "status": last.status, "result": last.result,
			"runTestCases": last.cases, "issues": []any{}})
	case r.URL.Path == "/v1/run/r1":
		s.mu.Lock()
		n := len(s.pollTime)
		step := s.steps[min(n, len(s.steps)-1)]
		s.pollTime = append(s.pollTime, s.clock())
		deadline := time.Now().Add(5 * time.Second)
		for s.logs < step.logsBefore && time.Now().Before(deadline) {
			s.mu.Unlock()
			time.Sleep(time.Millisecond)
			s.mu.Lock()
		}
		if s.logs < step.logsBefore {
			s.t.Errorf("poll %d: %d log requests had come, want %d before it is answered", n+1, s.logs, step.logsBefore)
		}
		if step.failWith != 0 {
			s.log = append(s.log, fmt.Sprintf("poll %d", step.failWith))
			s.mu.Unlock()
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(step.failWith)
			return
		}
		s.log = append(s.log, "poll "+step.status)
		s.mu.Unlock()
		body := map[string]any{"shortId": "r1", "status": step.status, "runTestCases": step.cases}
		if step.result != "" {
			body["result"] = step.result
		}
		_ = json.NewEncoder(w).Encode(body)
	default:
		http.NotFound(w, r)
	}
}

func (s *scriptedRun) note(what string, also func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, what)
	if also != nil {
		also()
	}
}

// after is what was requested after the run's final answer.
func (s *scriptedRun) after() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.log, func(l string) bool { return l == "poll COMPLETED" })
	if i < 0 {
		s.t.Fatalf("the run's end was never asked for:\n%s", strings.Join(s.log, "\n"))
	}
	return slices.Clone(s.log[i+1:])
}

func (s *scriptedRun) count(prefix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.log {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// The failure story is read while the run goes on: the logs of each test
// case that ends without passing are asked for as it ends, before the run
// does, so that after the run's end only its issues are left to read (one
// request, where the logs took three waves of them after the end). With
// --evidence 0 nothing follows the end.
func TestEvidenceIsReadAsTestCasesEnd(t *testing.T) {
	for _, n := range []string{"10", "0"} {
		t.Run("evidence "+n, func(t *testing.T) {
			e := cmdtest.New(t)
			logs := 4
			if n == "0" {
				logs = 0
			}
			s := newScriptedRun(t, e,
				scriptStep{status: "RUNNING", cases: []map[string]any{tc("r1-1", "COMPLETED", "FAILED", "Blank page"),
					tc("r1-2", "RUNNING", "", ""), tc("r1-3", "COMPLETED", "PASSED", "")}},
				scriptStep{status: "RUNNING", logsBefore: logs / 2, cases: []map[string]any{tc("r1-1", "COMPLETED", "FAILED", "Blank page"),
					tc("r1-2", "COMPLETED", "FAILED", "No error shown"), tc("r1-3", "COMPLETED", "PASSED", ""), tc("r1-4", "RUNNING", "", "")}},
				scriptStep{status: "COMPLETED", result: "FAILED", logsBefore: logs, cases: []map[string]any{tc("r1-1", "COMPLETED", "FAILED", "Blank page"),
					tc("r1-2", "COMPLETED", "FAILED", "No error shown"), tc("r1-3", "COMPLETED", "PASSED", ""), tc("r1-4", "COMPLETED", "PASSED", "")}},
			)
			r := e.Run("run", "wait", "r1", "--evidence", n).Expect(t, 1)
			want := []string{"issues"}
			if n == "0" {
				want = nil
			}
			if got := s.after(); !slices.Equal(got, want) {
				t.Errorf("after the run's end: %q, want %q", got, want)
			}
			if got := s.count("logs "); got != logs {
				t.Errorf("%d log requests, want %d (two for each failed test case, once)", got, logs)
			}
			if n == "10" {
				cmdtest.Contains(t, "stderr", r.Stderr, "POST /api/pay 502")
			}
		})
	}
}

// A test case the service reports otherwise after it ended (retried within
// the run, it ran again and ended with another title) has its evidence read
// again: the story shown is the one of its last end.
func TestEvidenceOfATestCaseRetriedWithinTheRunIsReadAgain(t *testing.T) {
	e := cmdtest.New(t)
	s := newScriptedRun(t, e,
		scriptStep{status: "RUNNING", cases: []map[string]any{tc("r1-1", "COMPLETED", "FAILED", "First try"), tc("r1-2", "RUNNING", "", "")}},
		scriptStep{status: "RUNNING", logsBefore: 2, cases: []map[string]any{tc("r1-1", "RUNNING", "", ""), tc("r1-2", "RUNNING", "", "")}},
		scriptStep{status: "RUNNING", cases: []map[string]any{tc("r1-1", "COMPLETED", "FAILED", "Second try"), tc("r1-2", "RUNNING", "", "")}},
		scriptStep{status: "COMPLETED", result: "FAILED", logsBefore: 4, cases: []map[string]any{tc("r1-1", "COMPLETED", "FAILED", "Second try"),
			tc("r1-2", "COMPLETED", "PASSED", "")}},
	)
	r := e.Run("run", "wait", "r1").Expect(t, 1)
	if got := s.count("logs r1-1 "); got != 4 {
		t.Errorf("%d log requests of r1-1, want 4: read when it ended, and again when it ended again", got)
	}
	if got := s.after(); !slices.Equal(got, []string{"issues"}) {
		t.Errorf("after the run's end: %q, want only its issues", got)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Second try")
}

// Once every test case of a run has ended and the run has not, it is polled
// once a second later, so the verdict follows the run's end within about a
// second; once per run, the regular polls kept on their schedule, never
// sooner than a Retry-After.
func TestRunPolledSoonerOnceEveryTestCaseHasEnded(t *testing.T) {
	done := []map[string]any{tc("r1-1", "COMPLETED", "PASSED", ""), tc("r1-2", "COMPLETED", "PASSED", "")}
	tests := []struct {
		name  string
		steps []scriptStep
		gaps  []time.Duration // between polls, on the fake clock
	}{
		{"the run ends a second after its test cases", []scriptStep{
			{status: "RUNNING", cases: []map[string]any{tc("r1-1", "COMPLETED", "PASSED", ""), tc("r1-2", "RUNNING", "", "")}},
			{status: "RUNNING", cases: done},
			{status: "COMPLETED", result: "PASSED", cases: done},
		}, []time.Duration{5 * time.Second, time.Second}},
		{"once per run", []scriptStep{
			{status: "RUNNING", cases: done},
			{status: "RUNNING", cases: done},
			{status: "RUNNING", cases: done},
			{status: "COMPLETED", result: "PASSED", cases: done},
		}, []time.Duration{time.Second, 4 * time.Second, 5 * time.Second}},
		{"never against a Retry-After", []scriptStep{
			{status: "RUNNING", cases: done},
			{failWith: http.StatusServiceUnavailable},
			{status: "COMPLETED", result: "PASSED", cases: done},
		}, []time.Duration{time.Second, 7 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := cmdtest.New(t)
			s := newScriptedRun(t, e, tt.steps...)
			e.Run("run", "wait", "r1", "--interval", "5s").Expect(t, 0)
			var gaps []time.Duration
			for i := 1; i < len(s.pollTime); i++ {
				gaps = append(gaps, s.pollTime[i].Sub(s.pollTime[i-1]))
			}
			if len(gaps) != len(tt.gaps) {
				t.Fatalf("gaps between polls %v, want %v", gaps, tt.gaps)
			}
			for i := range gaps {
				// A retry's jitter may add to the Retry-After, never take from it.
				if gaps[i] < tt.gaps[i] || (i == 0 || tt.name != "never against a Retry-After") && gaps[i] != tt.gaps[i] {
					t.Errorf("gaps between polls %v, want %v", gaps, tt.gaps)
					break
				}
			}
		})
	}
}
