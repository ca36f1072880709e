package sandbox

import (
	"cmp"
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/testctl/testctl/pkg/clock"
)

// Options tune a sandbox. The zero value is a usable sandbox running in real
// time with 50 runs of history and no faults.
type Options struct {
	// Clock is the time source; nil means the wall clock. Tests pass a
	// clock.Fake shared with the client so simulated runs finish as fast
	// as the client waits.
	Clock clock.Clock
	// Speed makes sandbox time run this many times faster than Clock; 0
	// (or less) means 1.
	Speed float64
	// FaultRate is the share of requests (0..1) that fail: transiently,
	// before they are handled, or, for writes (starting a run, a rerun,
	// creating a test case), also by being carried out and then losing
	// their answer.
	FaultRate float64
	// NoLostAnswers keeps FaultRate's faults on writes to the transient
	// kinds, which have no effect: for tests that must never see a write
	// carried out without an answer.
	NoLostAnswers bool
	// VisibilityDelay, for tests of a client's grace, emulates the service's
	// visibility delay: a run created less than this long ago (on Clock,
	// not scaled by Speed) is missing from GET /v1/run and not found (404)
	// by the operations that name it. 0 shows a run at once.
	VisibilityDelay time.Duration
	// Latency is a real-time delay added before each response.
	Latency time.Duration
	// History is the number of generated past runs in GET /v1/run: 0 means
	// 50, a negative value none, at most MaxHistory.
	History int
	// Seed makes everything random (history, telemetry, ids, faults)
	// reproducible.
	Seed int64
	// IDSeed, when not 0, places the short ids of the runs started in this
	// sandbox instead of Seed (ProcessIDSeed gives one of its own to each
	// process); the history stays Seed's.
	IDSeed int64
	// FailingTestCases, for benchmarks of the failure reports, adds that
	// many enabled test cases to the project ("Regression 01: …"), each
	// failing as the declined card does, with its evidence and issue, and
	// the plan PlanRegressions that runs them all. 0 adds neither.
	FailingTestCases int
	// RunEndDelay, in sandbox time, is how long a run started here goes on
	// after its last test case ended, as the service's may while it
	// evaluates the run; 0, as the fixtures are timed, ends it with it.
	RunEndDelay time.Duration
	// BaselineHistory adds the runs of PlanBaseline on main (baseline.go)
	// between the runs started here and the generated history: the
	// baseline of `--baseline main`. testctl --sandbox and testctl sandbox
	// have them; tests that count the run list do not.
	BaselineHistory bool
}

// MaxHistory bounds Options.History; the compact history index costs a few
// bytes per run.
const MaxHistory = 1_000_000

// DefaultHistory is the number of past runs when Options.History is 0.
const DefaultHistory = 50

// Server is the emulator; it implements http.Handler.
type Server struct {
	opts    Options // normalised: Clock set, Speed positive, History bounded
	start   time.Time
	mux     *http.ServeMux
	history []historyAttr

	faultRate  atomic.Uint64 // math.Float64bits of the rate
	requestSeq atomic.Uint64
	loseMu     sync.Mutex
	loseQueue  []string // lost-answer kinds LoseNextAnswers scripted

	mu          sync.RWMutex
	captures    sync.Map // run test case short id -> capture
	runOrder    []*run   // oldest first: a run's short id decodes to its index
	created     []*testCase
	createdByID map[string]*testCase
	regressions *plan // Options.FailingTestCases's plan, or nil

	statsMu sync.Mutex
	stats   Stats
}

// New returns a sandbox whose clock starts now.
func New(opts Options) *Server {
	s := &Server{opts: opts, createdByID: map[string]*testCase{}}
	s.opts.Clock = cmp.Or(s.opts.Clock, clock.Clock(clock.Real{}))
	if s.opts.Speed <= 0 {
		s.opts.Speed = 1
	}
	s.opts.History = min(max(cmp.Or(opts.History, DefaultHistory), 0), MaxHistory)
	s.start = s.opts.Clock.Now()
	s.history = buildHistory(s.opts.Seed, s.opts.History)
	s.addRegressions(opts.FailingTestCases)
	s.SetFaultRate(opts.FaultRate)
	s.stats = Stats{Requests: map[string]int{}, Faults: map[string]int{}, LostAnswers: map[string]int{}}
	s.routes()
	return s
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /_sandbox/stats", s.handleStats)
	m.HandleFunc("POST /v1/run", s.authed(inBody, s.handleStartRun))
	m.HandleFunc("GET /v1/run", s.authed(inProject, s.handleListRuns))
	m.HandleFunc("GET /v1/run/{shortId}", s.authed(inProject, s.handleGetRun))
	m.HandleFunc("POST /v1/run/{shortId}", s.authed(inBody, s.handleRerun))
	m.HandleFunc("GET /v1/run-test-case/{shortId}/logs", s.authed(inProject, s.handleLogs))
	m.HandleFunc("GET /v1/test-cases", s.authed(inProject, s.handleListTestCases))
	m.HandleFunc("POST /v1/test-cases", s.authed(inBody, s.handleCreateTestCase))
	m.HandleFunc("GET /v1/remote-tunnels", s.authed(inOrg, s.handleListTunnels))
	m.HandleFunc("GET /v1/remote-tunnels/{runnerId}/status", s.authed(inOrg, s.handleTunnelStatus))
	m.HandleFunc("GET /v1/applications", s.authed(inProject, s.handleApplications))
	m.HandleFunc("GET /v1/applications/{app}/environments", s.authed(inProject, s.handleEnvironments))
	m.HandleFunc("GET /v1/outbound-ips", s.handleOutboundIPs)
	m.HandleFunc("GET /v1/badge.svg", s.handleBadge)
	m.HandleFunc("GET "+LegacyPrefix+"/projects/{projectUuid}/runs/{shortId}", s.handleLegacyRun)
	m.HandleFunc(LegacyPrefix+"/", func(w http.ResponseWriter, r *http.Request) {
		writeLegacyError(w, http.StatusNotFound, "Not Found")
	})
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such operation: %s %s", r.Method, r.URL.Path)
	})
	s.mux = m
}

// ServeHTTP counts the request, then delays it and perhaps fails it: most
// faults come before any handler runs, so the request has no effect; a
// lost answer comes after. The /_sandbox/ routes are exempt: tests read
// them to check the rest.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, pattern := s.mux.Handler(r)
	route := routeKey(r.Method, pattern)
	s.countWith(func(st *Stats) { st.Requests[route]++ })
	if strings.HasPrefix(r.URL.Path, "/_sandbox/") {
		s.mux.ServeHTTP(w, r)
		return
	}
	if s.opts.Latency > 0 {
		if err := (clock.Real{}).Sleep(r.Context(), s.opts.Latency); err != nil {
			return // the client gave up; nobody reads an answer
		}
	}
	s.serveWithFaults(w, r, route)
}

// routeKey names a route for Stats: the mux pattern, method included.
func routeKey(method, pattern string) string {
	if strings.Contains(pattern, " ") {
		return pattern
	}
	return method + " " + cmp.Or(pattern, "/")
}

// now is the sandbox time in seconds since the server started.
func (s *Server) now() float64 {
	return s.opts.Clock.Now().Sub(s.start).Seconds() * s.opts.Speed
}

// stamp turns sandbox seconds into a wall-clock timestamp. Sandbox time
// runs Speed times faster, so at a high speed timestamps run ahead of the
// real clock; that keeps durations in the data consistent with the speed.
func (s *Server) stamp(sec float64) string {
	return s.start.Add(time.Duration(sec * float64(time.Second))).UTC().Format(time.RFC3339)
}

// Instance is a sandbox listening on a TCP address.
type Instance struct {
	BaseURL       string // e.g. http://127.0.0.1:8787
	LegacyBaseURL string // BaseURL + LegacyPrefix
	Server        *Server

	close func() error // stops the server once, see Close
}

// Listen starts a sandbox on addr ("127.0.0.1:0" picks a free port).
func Listen(addr string, opts Options) (*Instance, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := New(opts)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = hs.Serve(ln) // returns ErrServerClosed after Close
	}()
	base := "http://" + ln.Addr().String()
	return &Instance{BaseURL: base, LegacyBaseURL: base + LegacyPrefix, Server: srv, close: sync.OnceValue(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := hs.Shutdown(ctx)
		if errors.Is(err, context.DeadlineExceeded) {
			err = hs.Close()
		}
		<-served
		return err
	})}, nil
}

// Close stops accepting connections and waits up to five seconds for
// requests in flight (a --latency delay, say) before cutting them off.
func (i *Instance) Close() error { return i.close() }
