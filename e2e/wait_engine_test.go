package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
)

// waiter is one command built on the wait engine, with the path it polls
// and the answer that ends its wait.
type waiter struct {
	name string
	args []string
	path string
	done string
}

var waiters = []waiter{
	{"run wait", []string{"run", "wait", "r1", "--interval", "5s", "--timeout", "1h"}, "/v1/run/r1",
		`{"shortId":"r1","status":"COMPLETED","result":"PASSED","runTestCases":[{"shortId":"r1-1","name":"a","status":"COMPLETED","result":"PASSED"}]}`},
	{"tunnel status --wait-until", []string{"tunnel", "status", "runner-1", "--wait-until", "healthy", "--interval", "5s", "--timeout", "1h"},
		"/v1/remote-tunnels/runner-1/status", `{"status":"healthy","connections":4,"hostnames":[]}`},
}

// answer is one scripted reply; an empty body stands for the waiter's done.
type answer struct {
	status     int
	retryAfter string
}

// serveScript answers the waiter's path with the script, then repeats its
// last answer, and records on the fake clock when each request arrived.
func serveScript(t *testing.T, e *cmdtest.Env, w waiter, script []answer) func() []time.Time {
	arrivals := make(chan time.Time, 64) // requests come one at a time; the buffer outlasts any script
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Path != w.path {
			t.Errorf("%s: unexpected request %s", w.name, r.URL.Path)
			http.NotFound(rw, r)
			return
		}
		a := script[min(len(arrivals), len(script)-1)]
		arrivals <- e.Clock.Now()
		if a.retryAfter != "" {
			rw.Header().Set("Retry-After", a.retryAfter)
		}
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(a.status)
		if a.status == http.StatusOK {
			_, _ = rw.Write([]byte(w.done))
		} else {
			_, _ = rw.Write([]byte(`{"message":"try later"}`))
		}
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	return func() []time.Time {
		var at []time.Time
		for len(arrivals) > 0 {
			at = append(at, <-arrivals)
		}
		return at
	}
}

// Both waits run on one loop, so a 429's Retry-After, a transient 5xx and a
// streak of failures are handled the same way by each.
func TestRunAndTunnelWaitsShareTheFailureRules(t *testing.T) {
	const interval = 5 * time.Second
	tests := []struct {
		name     string
		script   []answer
		wantCode int
		// gaps checks the time between consecutive requests on the fake clock.
		gaps []func(time.Duration) bool
	}{
		{"429 with Retry-After, then done", []answer{{429, "30"}, {200, ""}}, 0,
			[]func(time.Duration) bool{exactly(30 * time.Second)}},
		{"a 503 is ridden out with jittered backoff", []answer{{503, ""}, {502, ""}, {200, ""}}, 0,
			// Equal jitter over ceilings of one, then two intervals.
			[]func(time.Duration) bool{within(interval/2, interval), within(interval, 2*interval)}},
		{"a 503's Retry-After is a floor over the backoff", []answer{{503, "45"}, {200, ""}}, 0,
			[]func(time.Duration) bool{exactly(45 * time.Second)}},
		{"ten failures in a row end the wait", []answer{{500, ""}}, 6, nil},
	}
	for _, tt := range tests {
		for _, w := range waiters {
			t.Run(tt.name+"/"+w.name, func(t *testing.T) {
				e := cmdtest.New(t)
				requests := serveScript(t, e, w, tt.script)
				r := e.Run(w.args...)
				checkNoPanic(t, r)
				if r.Code != tt.wantCode {
					t.Fatalf("exit %d, want %d\nstderr:\n%s", r.Code, tt.wantCode, r.Stderr)
				}
				at := requests()
				if tt.wantCode == 6 {
					if len(at) != 10 || !strings.Contains(r.Stderr, "giving up after 10 failed requests in a row") {
						t.Errorf("%d requests, want 10; stderr:\n%s", len(at), r.Stderr)
					}
					return
				}
				if len(at) != len(tt.gaps)+1 {
					t.Fatalf("%d requests, want %d", len(at), len(tt.gaps)+1)
				}
				for i, ok := range tt.gaps {
					if gap := at[i+1].Sub(at[i]); !ok(gap) {
						t.Errorf("request %d came %s after the one before", i+2, gap)
					}
				}
				if n := strings.Count(r.Stderr, "retrying"); n != 1 {
					t.Errorf("%d retry notices, want one per streak:\n%s", n, r.Stderr)
				}
			})
		}
	}
}

func exactly(want time.Duration) func(time.Duration) bool {
	return func(d time.Duration) bool { return d == want }
}

func within(lo, hi time.Duration) func(time.Duration) bool {
	return func(d time.Duration) bool { return d >= lo && d < hi }
}
