package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// A 2xx answer that does not name a started run is a failure of the
// service, never a start: exit 6 with the service's message, and nothing
// that claims a run started.
func TestAnAnswerThatStartedNothingFails(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"refused", `{"success": false, "message": "quota exceeded"}`, "quota exceeded"},
		{"no run", `{"success": true}`, "no run.shortId"},
	} {
		for _, wait := range []bool{false, true} {
			var requests atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet { // the runs that exist before the start
					_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":100,"offset":0}`))
					return
				}
				requests.Add(1)
				_, _ = w.Write([]byte(tc.body))
			}))
			e := cmdtest.New(t)
			e.Setenv("TESTCTL_BASE_URL", srv.URL)
			args := []string{"run", "start", "--plan", "pln-passing_sandbox"}
			if wait {
				args = append(args, "--wait")
			}
			r := e.Run(args...)
			srv.Close()
			if r.Code != 6 || !strings.Contains(r.Stderr, tc.want) || strings.Contains(r.Output(), "Started") || r.Stdout != "" {
				t.Errorf("%s, --wait=%v: exit %d, want 6 with %q and no start claimed\nstdout:\n%s\nstderr:\n%s",
					tc.name, wait, r.Code, tc.want, r.Stdout, r.Stderr)
			}
			if n := requests.Load(); n != 1 {
				t.Errorf("%s, --wait=%v: %d POSTs, want one", tc.name, wait, n)
			}
		}
	}
}

// A 301 would turn the POST into a GET of the run list, read as a start.
func TestAStartIsNotRedirected(t *testing.T) {
	var posted atomic.Bool
	var gets atomic.Int32 // after the POST: the one before it reads the runs that exist
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posted.Store(true)
			http.Redirect(w, r, "/v1/run", http.StatusMovedPermanently)
			return
		}
		if posted.Load() {
			gets.Add(1)
		}
		_, _ = w.Write([]byte(`{"runs":[{"shortId":"old1"}],"total":1,"limit":20,"offset":0}`))
	}))
	defer srv.Close()
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--wait").Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr, "refused to follow a redirect (HTTP 301)", "a POST is never followed")
	if strings.Contains(r.Output(), "Started") || gets.Load() != 0 {
		t.Errorf("%d GETs after the redirect\nstderr:\n%s", gets.Load(), r.Stderr)
	}
}
