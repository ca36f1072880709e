package cmdtest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// WriteFault is what befalls one write request (a run start, a rerun, a
// test case creation) between testctl and the sandbox.
type WriteFault int

const (
	// Deliver: the request reaches the sandbox and its answer comes back.
	Deliver WriteFault = iota
	// LoseAnswer: the sandbox carries the request out, then a proxy answers
	// 502 instead: the write a client must not make twice.
	LoseAnswer
	// LoseRequest: a proxy answers 502 and the sandbox never sees it.
	LoseRequest
	// DeliverTwice: the request is carried out twice (as if another job
	// sent the same at the same moment), then a proxy answers 502.
	DeliverTwice
)

// FaultWrites puts a proxy in front of the sandbox, and the settings' base
// URL on it, that hands the successive requests of route ("POST /v1/run")
// the faults in order; later ones are delivered.
func (e *Env) FaultWrites(route string, faults ...WriteFault) {
	e.t.Helper()
	e.proxy(&writeProxy{next: e.Sandbox.Server, route: route, faults: faults})
}

// proxy serves h in front of the sandbox, with the settings' base URL on it.
func (e *Env) proxy(h http.Handler) {
	srv := httptest.NewServer(h)
	e.t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
}

type writeProxy struct {
	next   http.Handler
	route  string
	mu     sync.Mutex
	faults []WriteFault
}

func (p *writeProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method+" "+r.URL.Path != p.route {
		p.next.ServeHTTP(w, r)
		return
	}
	p.mu.Lock()
	fault := Deliver
	if len(p.faults) > 0 {
		fault, p.faults = p.faults[0], p.faults[1:]
	}
	p.mu.Unlock()
	if fault == Deliver {
		p.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	switch fault {
	case DeliverTwice:
		send(p.next, r, body)
		fallthrough
	case LoseAnswer:
		send(p.next, r, body)
	}
	badGateway(w)
}

// send hands next a copy of r with body, and returns its answer.
func send(next http.Handler, r *http.Request, body []byte) *httptest.ResponseRecorder {
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, r2)
	return rec
}

// badGateway is the proxy's answer when the sandbox's is lost, or the
// request never reached it: a 502, as of a reset upstream connection.
func badGateway(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadGateway)
	_, _ = io.WriteString(w, `{"message":"upstream connection reset"}`)
}
