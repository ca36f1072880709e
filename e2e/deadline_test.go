package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
)

// never answers: it holds each request until the client gives up.
func never(w http.ResponseWriter, r *http.Request) { stall(r) }

// stall holds a request until the client gives up, or for twice hangGuard:
// after runGuarded failed a test, the server still lets go, so the
// test's clean-up (which waits for its requests) cannot hang the suite.
func stall(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(2 * hangGuard):
	}
}

// trickle sends a 200 and then its body a byte at a time, slowly, for as
// long as the client reads.
func trickle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	for {
		if _, err := w.Write([]byte(" ")); err != nil {
			return
		}
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// --timeout bounds the whole wait, the poll in flight included: against a
// server that never answers, or trickles its answer, a wait ends at its
// --timeout, not at --http-timeout (30s by default) or later.
func TestTimeoutCancelsThePollInFlight(t *testing.T) {
	for name, handler := range map[string]http.HandlerFunc{"never answers": never, "trickles": trickle} {
		for _, w := range []struct {
			args []string
			code int
		}{
			// Not one answer about r1: nothing says it exists, let alone
			// goes on, so the service failed (6) rather than a run ran
			// past --timeout (7). A run just started is known to exist.
			{[]string{"run", "wait", "r1", "--timeout", "300ms"}, 6},
			{[]string{"run", "start", "--plan", "pln-passing_sandbox", "--wait", "--timeout", "300ms"}, 7},
			{[]string{"tunnel", "status", "runner-1", "--wait-until", "healthy", "--timeout", "300ms"}, 6},
		} {
			t.Run(name+"/"+w.args[0]+" "+w.args[1], func(t *testing.T) {
				e := cmdtest.New(t)
				if w.args[1] == "start" {
					// The start goes to the sandbox; only the polls hang.
					sb := e.Sandbox.Server
					srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
						if r.Method == http.MethodGet && len(r.URL.Path) > len("/v1/run/") {
							handler(rw, r)
							return
						}
						sb.ServeHTTP(rw, r)
					}))
					t.Cleanup(srv.Close)
					e.Setenv("TESTCTL_BASE_URL", srv.URL)
				} else {
					srv := httptest.NewServer(handler)
					t.Cleanup(srv.Close)
					e.Setenv("TESTCTL_BASE_URL", srv.URL)
				}
				// With --http-timeout far past hangGuard, only --timeout can
				// end the poll in flight.
				r := runGuarded(t, e, append(w.args, "--http-timeout", "10m")...)
				checkNoPanic(t, r)
				r.Expect(t, w.code)
			})
		}
	}
}
