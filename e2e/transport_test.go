package e2e_test

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// throttled answers the first request with a 429 and Retry-After, then
// with a run.
func throttled(t *testing.T, retryAfter string) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", retryAfter)
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte(`{"id":"1","shortId":"r4m0gl","status":"RUNNING","result":null,"runTestCases":[]}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// A pause before a retry longer than 2 s is said on stderr; one longer
// than 10 s is not taken by a one-shot command.
func TestOneShotRetryPausesAreAnnouncedAndBounded(t *testing.T) {
	srv, n := throttled(t, "5")
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "get", "r4m0gl").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr,
		"warning: GET /v1/run/r4m0gl?testCases=all: HTTP 429 Too Many Requests; retrying in 5s (attempt 2 of 4)\n")
	if n.Load() != 2 || strings.Contains(r.Stdout, "warning") {
		t.Errorf("%d requests\nstdout:\n%s", n.Load(), r.Stdout)
	}

	srv, n = throttled(t, "86400")
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r = e.Run("run", "get", "r4m0gl").Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr, "HTTP 429", "24h0m0s (Retry-After: 86400)")
	if slept, _ := e.Clock.Slept(); n.Load() != 1 || slept != 5e9 {
		t.Errorf("%d requests, slept %s in all: want no wait for a day", n.Load(), slept)
	}
}

// A wait stops at once, naming the cause, on failures that retrying cannot
// mend; before, it retried them until it gave up.
func TestWaitEndsAtOnceOnAPermanentFailure(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "wait", "r4m0gl").Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr, "the server's certificate is not trusted: x509: ")
	if strings.Contains(r.Stderr, "retrying") || strings.Contains(r.Stderr, "giving up") {
		t.Errorf("an untrusted certificate was retried:\n%s", r.Stderr)
	}
}

func TestOrganizationKeyErrorNamesTestctlsWays(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", sandbox.OrgKey)
	r := e.Run("run", "list").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "projectShortId is required", "--project (-p) or TESTCTL_PROJECT")
}

// A redirect to another origin is refused and the key reaches nobody there,
// nor the output, even when the Location quotes it.
func TestRedirectElsewhereIsRefusedAndRedacted(t *testing.T) {
	const key = "live-key-0123456789"
	var reached atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached.Add(1) }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/collect?k="+r.Header.Get("Authorization")[len("Bearer "):], http.StatusFound)
	}))
	defer srv.Close()
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	e.Setenv("TESTCTL_API_KEY", key)
	for _, args := range [][]string{{"run", "get", "r4m0gl"}, {"api", "/v1/run"}, {"run", "get", "r4m0gl", "--debug"}} {
		r := e.Run(args...).Expect(t, 6)
		cmdtest.Contains(t, "stderr", r.Stderr, "refused to follow a redirect (HTTP 302) to "+other.URL+"/collect?k=[REDACTED]")
		if strings.Contains(r.Output(), key) {
			t.Errorf("%v: the key is in the output:\n%s", args, r.Output())
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("%d requests reached the other origin", n)
	}
}
