package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/sandbox"
)

// logsGate stands before the sandbox and holds each log request until
// `wave` of them are in flight together (a guard of a few seconds: a wave
// that never fills fails the test), so that a report sending its requests
// a few at a time cannot pass; it notes the most ever in flight.
type logsGate struct {
	t    *testing.T
	next http.Handler
	wave int

	mu                      sync.Mutex
	arrived, inFlight, peak int
}

func (g *logsGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/logs") {
		g.next.ServeHTTP(w, r)
		return
	}
	g.mu.Lock()
	g.arrived++
	g.inFlight++
	g.peak = max(g.peak, g.inFlight)
	deadline := time.Now().Add(5 * time.Second)
	for g.arrived < g.wave && time.Now().Before(deadline) {
		g.mu.Unlock()
		time.Sleep(time.Millisecond)
		g.mu.Lock()
	}
	if g.arrived < g.wave {
		g.t.Errorf("%d log requests came together, want a wave of %d", g.arrived, g.wave)
		g.wave = 0 // said once
	}
	g.mu.Unlock()
	g.next.ServeHTTP(w, r)
	g.mu.Lock()
	g.inFlight--
	g.mu.Unlock()
}

// run report of an ended run sends all its evidence requests at once, up
// to the bound (evidence.DefaultConcurrency): the ten failed test cases of
// the default --evidence in one wave, one round trip after the run's;
// fifty in waves of the bound, never more in flight.
func TestReportSendsItsEvidenceInOneWave(t *testing.T) {
	tests := []struct {
		failing    int
		wave, peak int
	}{
		{10, 20, 20},
		{50, evidence.DefaultConcurrency, evidence.DefaultConcurrency},
	}
	for _, tt := range tests {
		e := cmdtest.New(t, cmdtest.WithSandbox(sandbox.Options{FailingTestCases: tt.failing}))
		id := ended(t, e, sandbox.PlanRegressions)
		target, _ := url.Parse(e.Getenv("TESTCTL_BASE_URL"))
		gate := &logsGate{t: t, next: httputil.NewSingleHostReverseProxy(target), wave: tt.wave}
		srv := httptest.NewServer(gate)
		t.Cleanup(srv.Close)
		e.Setenv("TESTCTL_BASE_URL", srv.URL)
		e.Run("run", "report", id, "--evidence", "50").Expect(t, 1)
		if gate.arrived != 2*tt.failing {
			t.Errorf("%d failed test cases: %d log requests, want %d", tt.failing, gate.arrived, 2*tt.failing)
		}
		if gate.peak > tt.peak {
			t.Errorf("%d failed test cases: %d log requests in flight at once, bound %d", tt.failing, gate.peak, tt.peak)
		}
	}
}

// together holds each request it is given until one of each kind has come
// (a guard of a few seconds: a kind that comes only after another was
// answered fails the test).
type together struct {
	t     *testing.T
	next  http.Handler
	kinds map[string]func(*http.Request) bool

	mu   sync.Mutex
	seen map[string]bool
}

func (g *together) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	kind := ""
	for k, is := range g.kinds {
		if is(r) {
			kind = k
		}
	}
	if kind != "" {
		g.mu.Lock()
		g.seen[kind] = true
		deadline := time.Now().Add(5 * time.Second)
		for len(g.seen) < len(g.kinds) && time.Now().Before(deadline) {
			g.mu.Unlock()
			time.Sleep(time.Millisecond)
			g.mu.Lock()
		}
		if len(g.seen) < len(g.kinds) {
			g.t.Errorf("%s came alone: the reads of a report wait for one another (%v)", kind, g.seen)
			g.kinds = map[string]func(*http.Request) bool{} // said once
		}
		g.mu.Unlock()
	}
	g.next.ServeHTTP(w, r)
}

// In CI a report also reads the run list (the runs' URLs and times) and,
// for --html, the plan's history: they go out with the evidence, not
// before or after it, each a round trip to the service.
func TestReportReadsTheRunListBesideTheEvidence(t *testing.T) {
	e := cmdtest.New(t)
	id := ended(t, e, sandbox.PlanFailing)
	target, _ := url.Parse(e.Getenv("TESTCTL_BASE_URL"))
	gate := &together{t: t, next: httputil.NewSingleHostReverseProxy(target), seen: map[string]bool{},
		kinds: map[string]func(*http.Request) bool{
			"the run list": func(r *http.Request) bool {
				return r.URL.Path == "/v1/run" && r.URL.Query().Get("testPlanShortId") == ""
			},
			"the history": func(r *http.Request) bool {
				return r.URL.Path == "/v1/run" && r.URL.Query().Get("testPlanShortId") != ""
			},
			"the evidence": func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/logs") },
		}}
	srv := httptest.NewServer(gate)
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	e.GitHubActions()
	e.Run("run", "report", id, "--html", e.Dir+"/report.html").Expect(t, 1)
}
