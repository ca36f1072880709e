package sandbox

import (
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
)

// Transient faults a client must survive: the statuses the service's own CI
// integration retries, and a connection dropped without any response. They
// fail a request before it is handled, so it had no effect.
var faultKinds = []string{"500", "502", "503", "429", "drop"}

// Lost answers: a write carried out, whose answer then never reaches the
// client (a 500 or a dropped connection, as from a proxy that failed after
// forwarding). They are the failure a client must never turn into a
// duplicate by sending the request again. Stats.LostAnswers counts them by
// these kinds.
const (
	LostAnswer500  = "500"
	LostAnswerDrop = "drop"
)

// lostPrefix marks a lost-answer kind among the fault kinds of a write.
const lostPrefix = "lost-"

// writeFaultKinds are the faults of a write: the transient ones and the
// lost answers, drawn alike.
var writeFaultKinds = append(append([]string(nil), faultKinds...), lostPrefix+LostAnswer500, lostPrefix+LostAnswerDrop)

// writeRoutes are the operations that create something, by mux pattern.
var writeRoutes = map[string]bool{
	"POST /v1/run":           true,
	"POST /v1/run/{shortId}": true,
	"POST /v1/test-cases":    true,
}

// SetFaultRate changes the share of requests (clamped to 0..1) that fail,
// so a test can start runs cleanly and then turn faults on.
func (s *Server) SetFaultRate(rate float64) {
	if math.IsNaN(rate) || rate < 0 {
		rate = 0
	}
	s.faultRate.Store(math.Float64bits(math.Min(rate, 1)))
}

// FaultRate returns the current fault rate.
func (s *Server) FaultRate() float64 { return math.Float64frombits(s.faultRate.Load()) }

// LoseNextAnswers makes the next n writes that succeed lose their answer
// the given way (LostAnswerDrop, else LostAnswer500), whatever the fault
// rate, so a test can script exactly which start goes unanswered.
func (s *Server) LoseNextAnswers(n int, kind string) {
	if kind != LostAnswerDrop {
		kind = LostAnswer500
	}
	s.loseMu.Lock()
	defer s.loseMu.Unlock()
	s.loseQueue = append(s.loseQueue, slices.Repeat([]string{kind}, max(n, 0))...)
}

// faultFor decides from the seed and a request's sequence number whether,
// and how, to fail it ("" for not at all). Deciding by sequence number
// instead of drawing from a shared random stream keeps the n-th request's
// fate the same for a seed whatever happened before, and needs no lock.
// A write may also draw a lost answer; whether a request fails does not
// depend on it being a write.
func faultFor(seed int64, n uint64, rate float64, write bool) string {
	h := mix(mix(uint64(seed)^0xfa017) + n)
	if float64(h>>11)/(1<<53) >= rate {
		return ""
	}
	kinds := faultKinds
	if write {
		kinds = writeFaultKinds
	}
	return kinds[mix(h)%uint64(len(kinds))]
}

// serveWithFaults serves a request of the service's API, failing it when
// faultFor (or LoseNextAnswers) says so.
func (s *Server) serveWithFaults(w http.ResponseWriter, r *http.Request, route string) {
	write := writeRoutes[route]
	kind := faultFor(s.opts.Seed, s.requestSeq.Add(1), s.FaultRate(), write && !s.opts.NoLostAnswers)
	switch {
	case strings.HasPrefix(kind, lostPrefix):
		s.serveThenLose(w, r, func() string { return strings.TrimPrefix(kind, lostPrefix) })
	case kind != "":
		s.countWith(func(st *Stats) {
			st.FaultsInjected++
			st.Faults[kind]++
		})
		failWith(w, kind)
	case write && s.nextLoss(false) != "":
		s.serveThenLose(w, r, func() string { return s.nextLoss(true) })
	default:
		s.mux.ServeHTTP(w, r)
	}
}

// nextLoss is the next kind LoseNextAnswers queued ("" for none), taken off
// the queue when take is set. A write is only held back for a loss when one
// is queued (a peek); another write may take it meanwhile.
func (s *Server) nextLoss(take bool) string {
	s.loseMu.Lock()
	defer s.loseMu.Unlock()
	if len(s.loseQueue) == 0 {
		return ""
	}
	kind := s.loseQueue[0]
	if take {
		s.loseQueue = s.loseQueue[1:]
	}
	return kind
}

// serveThenLose handles the request, then, if it succeeded, loses its
// answer the way lose says ("" to keep it after all): something was
// created and the client cannot know. A refused write (a 4xx) is answered
// as is, since it changed nothing.
func (s *Server) serveThenLose(w http.ResponseWriter, r *http.Request, lose func() string) {
	answer := httptest.NewRecorder()
	s.mux.ServeHTTP(answer, r)
	kind := ""
	if answer.Code < 300 {
		kind = lose()
	}
	if kind == "" {
		maps.Copy(w.Header(), answer.Header())
		w.WriteHeader(answer.Code)
		_, _ = w.Write(answer.Body.Bytes())
		return
	}
	s.countWith(func(st *Stats) {
		st.FaultsInjected++
		st.LostAnswers[kind]++
	})
	failWith(w, kind)
}

// failWith answers a fault of the given kind; a lost 500 reads exactly as
// a transient one, as a client cannot tell them apart either.
func failWith(w http.ResponseWriter, kind string) {
	switch kind {
	case "drop":
		dropConnection(w)
	case "429":
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "sandbox: injected fault: too many requests, retry after 1 s")
	default: // "500", "502", "503"
		code, _ := strconv.Atoi(kind)
		writeError(w, code, "sandbox: injected fault: %s", strings.ToLower(http.StatusText(code)))
	}
}

// dropConnection closes the connection without writing a response, like a
// proxy reset. Where hijacking is impossible (HTTP/2), aborting the handler
// makes net/http reset the stream instead.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// Stats counts what the sandbox saw, so end-to-end tests can assert, for
// example, that a retried request did not start a run twice.
type Stats struct {
	// Requests counts arrivals by route ("POST /v1/run"), including those
	// that were then failed by fault injection. Unknown paths count as
	// "METHOD /".
	Requests map[string]int `json:"requests"`
	// RunsStarted counts runs actually created: by POST /v1/run and by
	// reruns, whether or not their answer then reached the client.
	RunsStarted int `json:"runsStarted"`
	// Reruns counts the runs of RunsStarted that a rerun created.
	Reruns int `json:"reruns"`
	// TestCasesCreated counts accepted POST /v1/test-cases.
	TestCasesCreated int `json:"testCasesCreated"`
	// FaultsInjected counts requests failed on purpose, both ways. Faults
	// splits those failed before they were handled by kind: "500", "502",
	// "503", "429" and "drop". LostAnswers splits the writes carried out
	// whose answer was then lost: "500" and "drop" (LostAnswer500,
	// LostAnswerDrop); each created the run or test case counted above.
	FaultsInjected int            `json:"faultsInjected"`
	Faults         map[string]int `json:"faults"`
	LostAnswers    map[string]int `json:"lostAnswers"`
}

// Stats returns a copy of the counters.
func (s *Server) Stats() Stats {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	out := s.stats
	out.Requests = maps.Clone(s.stats.Requests)
	out.Faults = maps.Clone(s.stats.Faults)
	out.LostAnswers = maps.Clone(s.stats.LostAnswers)
	return out
}

func (s *Server) countWith(f func(*Stats)) {
	s.statsMu.Lock()
	f(&s.stats)
	s.statsMu.Unlock()
}

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.Stats())
}
