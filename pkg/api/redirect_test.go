package api

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// origin is a server that records the Authorization header of every request
// that reaches it, by Host.
type origin struct {
	mu   sync.Mutex
	auth map[string][]string
}

func (o *origin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	if o.auth == nil {
		o.auth = map[string][]string{}
	}
	o.auth[r.Host] = append(o.auth[r.Host], r.Header.Get("Authorization"))
	o.mu.Unlock()
	_, _ = w.Write([]byte(`{"id":"1","shortId":"abc","status":"RUNNING","result":null,"runTestCases":[]}`))
}

func (o *origin) reached(host string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.auth[host]
}

func exitCodeOf(err error) int {
	var ec interface{ ExitCode() int }
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	return -1
}

// redirectTo makes the client's server answer every request with a redirect.
func redirectTo(code int, location string) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, location, code)
	}
}

func TestGETIsNotRedirectedToAnotherPort(t *testing.T) {
	other := &origin{}
	srv := httptest.NewServer(other)
	defer srv.Close()
	c, rec, _ := newTestClient(t, redirectTo(http.StatusFound, srv.URL+"/v1/run/abc"))
	_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	if exitCodeOf(err) != 6 || !strings.Contains(err.Error(), srv.URL+"/v1/run/abc") {
		t.Fatalf("got %v, want exit 6 naming the target", err)
	}
	if got := other.reached(strings.TrimPrefix(srv.URL, "http://")); len(got) != 0 {
		t.Errorf("the other port received %d requests (Authorization %q)", len(got), got)
	}
	if rec.count() != 1 {
		t.Errorf("%d requests, want 1: a refused redirect is not retried", rec.count())
	}
}

func TestGETIsNotRedirectedToAnotherHost(t *testing.T) {
	// One server, two names: 127.0.0.1 and localhost at the same port.
	o := &origin{}
	srv := httptest.NewUnstartedServer(nil)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host == fmt.Sprintf("127.0.0.1:%d", port) {
			http.Redirect(w, r, fmt.Sprintf("http://localhost:%d/v1/run/abc", port), http.StatusMovedPermanently)
			return
		}
		o.ServeHTTP(w, r)
	})
	srv.Start()
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, APIKey: "secret-key-1234", Retry: DefaultRetryPolicy}
	_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	target := fmt.Sprintf("http://localhost:%d/v1/run/abc", port)
	if exitCodeOf(err) != 6 || !strings.Contains(err.Error(), target) {
		t.Fatalf("got %v, want exit 6 naming %s", err, target)
	}
	if got := o.reached(fmt.Sprintf("localhost:%d", port)); len(got) != 0 {
		t.Errorf("the other host received %d requests (Authorization %q)", len(got), got)
	}
}

func TestGETFollowsARedirectOnItsOrigin(t *testing.T) {
	c, rec, _ := newTestClient(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			http.Redirect(w, r, "/v1/run/moved", http.StatusTemporaryRedirect)
			return
		}
		_, _ = w.Write([]byte(`{"id":"1","shortId":"moved","status":"RUNNING","result":null,"runTestCases":[]}`))
	})
	run, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	if err != nil || run.ShortID != "moved" {
		t.Fatalf("run=%+v err=%v", run, err)
	}
	if got := rec.requests[1].Header.Get("Authorization"); got != "Bearer secret-key-1234" {
		t.Errorf("followed request carried Authorization %q", got)
	}
}

func TestRedirectTargetIsRedacted(t *testing.T) {
	c, _, _ := newTestClient(t, redirectTo(http.StatusFound, "https://elsewhere.example/?token=secret-key-1234"))
	_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	if err == nil || strings.Contains(err.Error(), "secret-key-1234") || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Fatalf("got %v, want the target named with the key redacted", err)
	}
}

func TestPOSTIsNeverFollowedThroughARedirect(t *testing.T) {
	for _, code := range []int{301, 302, 307, 308} {
		c, rec, _ := newTestClient(t, func(n int, w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				http.Redirect(w, r, "/v1/run", code)
				return
			}
			_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":20,"offset":0}`))
		})
		_, err := c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"})
		if exitCodeOf(err) != 6 || !strings.Contains(err.Error(), "a POST is never followed") {
			t.Errorf("%d: got %v, want exit 6 refusing the redirect", code, err)
		}
		if rec.count() != 1 {
			t.Errorf("%d: %d requests reached the server, want the POST alone", code, rec.count())
		}
	}
}
