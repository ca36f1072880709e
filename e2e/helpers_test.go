// Package e2e_test proves testctl's reliability and security promises
// end to end: the real command tree, in-process, against the embedded
// sandbox or a deliberately hostile HTTP server, on a fake clock.
package e2e_test

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
)

// totalRequests is every request the env's sandbox has seen, on any route.
func totalRequests(e *cmdtest.Env) int {
	n := 0
	for _, c := range e.Sandbox.Server.Stats().Requests {
		n += c
	}
	return n
}

// checkNoPanic fails the test when a command crashed instead of failing
// cleanly: a recovered panic would surface as a goroutine dump or a
// "panic:" line on stderr.
func checkNoPanic(t *testing.T, r cmdtest.Result) {
	t.Helper()
	for _, bad := range []string{"panic:", "goroutine ", "runtime error"} {
		if strings.Contains(r.Output(), bad) {
			t.Fatalf("output holds %q: a crash, not a clean failure\nstdout:\n%s\nstderr:\n%s", bad, r.Stdout, r.Stderr)
		}
	}
}

// recorder wraps a handler and remembers, per route key, the status of
// each answer (0 for a connection dropped without one).
type recorder struct {
	next  http.Handler
	route func(*http.Request) string

	mu      sync.Mutex
	answers map[string][]int
}

func newRecorder(next http.Handler, route func(*http.Request) string) *recorder {
	return &recorder{next: next, route: route, answers: map[string][]int{}}
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		key := rec.route(r)
		if key == "" {
			return
		}
		rec.mu.Lock()
		rec.answers[key] = append(rec.answers[key], sw.status)
		rec.mu.Unlock()
	}()
	rec.next.ServeHTTP(sw, r)
}

// statuses returns a copy of the answers recorded for key.
func (rec *recorder) statuses(key string) []int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]int(nil), rec.answers[key]...)
}

// statusWriter records the status written; a hijacked (dropped)
// connection leaves it 0.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return w.ResponseWriter.(http.Hijacker).Hijack()
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// isFault reports whether a recorded answer is one the sandbox injects:
// a transient 5xx, a 429, or a dropped connection.
func isFault(status int) bool {
	switch status {
	case 0, http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable:
		return true
	}
	return false
}

// longestFaultStreak is the longest run of consecutive faults in answers.
func longestFaultStreak(answers []int) int {
	best, cur := 0, 0
	for _, s := range answers {
		if isFault(s) {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// hangGuard only keeps a broken build from hanging the suite: far above
// what any command here should take, even on a loaded machine. It is a
// guard against a hang, not a timing assertion.
const hangGuard = time.Minute

// runGuarded runs args, and fails the test if the command has not returned
// within hangGuard.
func runGuarded(t *testing.T, e *cmdtest.Env, args ...string) cmdtest.Result {
	t.Helper()
	done := make(chan cmdtest.Result, 1)
	go func() { done <- e.Run(args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(hangGuard):
		t.Fatalf("%v still running after %s", args, hangGuard)
		return cmdtest.Result{}
	}
}

// Routes whose requests the tests count.
const (
	postRun = "POST /v1/run"
	getLogs = "GET /v1/run-test-case/{shortId}/logs"
)

// finishedRun starts a plan, waits for its verdict and returns its short id.
func finishedRun(t *testing.T, e *cmdtest.Env, plan string, code int) string {
	t.Helper()
	r := e.Run("run", "start", "--plan", plan, "--wait", "-q").Expect(t, code)
	return strings.TrimSpace(r.Stdout)
}

// reruns is how many reruns reached the sandbox.
func reruns(e *cmdtest.Env) int { return e.Requests("POST /v1/run/{shortId}") }

// runsStarted is how many runs the sandbox has started.
func runsStarted(e *cmdtest.Env) int { return e.Sandbox.Server.Stats().RunsStarted }

// testCase is the sandbox's project test case n (1 to 10).
func testCase(n int) string {
	return strings.ReplaceAll("5a4db00N-0000-4000-8000-00000000000N", "N", string("0123456789a"[n]))
}
