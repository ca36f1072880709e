package sandbox

import (
	"math"
	"net/http"
)

// Transient faults a client must survive: the statuses the service's own CI
// integration retries, and a connection dropped without any response.
var faultKinds = []string{"500", "502", "503", "429", "drop"}

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

// faultFor decides from the seed and a request's sequence number whether,
// and how, to fail it ("" for not at all). Deciding by sequence number
// instead of drawing from a shared random stream keeps the n-th request's
// fate the same for a seed whatever happened before, and needs no lock.
func faultFor(seed int64, n uint64, rate float64) string {
	h := mix(mix(uint64(seed)^0xfa017) + n)
	if float64(h>>11)/(1<<53) >= rate {
		return ""
	}
	return faultKinds[mix(h)%uint64(len(faultKinds))]
}

// injectFault fails the request if faultFor says so, reporting whether it
// answered it.
func (s *Server) injectFault(w http.ResponseWriter, r *http.Request) bool {
	kind := faultFor(s.opts.Seed, s.requestSeq.Add(1), s.FaultRate())
	if kind == "" {
		return false
	}
	s.countWith(func(st *Stats) {
		st.FaultsInjected++
		st.Faults[kind]++
	})
	switch kind {
	case "drop":
		dropConnection(w)
	case "429":
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "sandbox: injected fault: too many requests, retry after 1 s")
	case "500":
		writeError(w, http.StatusInternalServerError, "sandbox: injected fault: internal server error")
	case "502":
		writeError(w, http.StatusBadGateway, "sandbox: injected fault: bad gateway")
	case "503":
		writeError(w, http.StatusServiceUnavailable, "sandbox: injected fault: service unavailable")
	}
	return true
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
