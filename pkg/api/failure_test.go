package api

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/clock"
)

// Failures that would fail the same way again are not retried, by the
// client or by a wait (IsTransient), and name their cause.

func TestUntrustedCertificateIsPermanent(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		t.Error("a request got through the TLS handshake")
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	srv.StartTLS()
	defer srv.Close()
	fake := clock.NewFake(time.Now())
	// The system's roots do not include httptest's certificate.
	c := &Client{BaseURL: srv.URL, APIKey: "secret-key-1234", HTTPClient: &http.Client{Transport: &http.Transport{}},
		Clock: fake, Retry: DefaultRetryPolicy}
	_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	if exitCodeOf(err) != 6 || IsTransient(err) {
		t.Fatalf("got %v (transient %v), want a permanent failure with exit 6", err, IsTransient(err))
	}
	const want = "GET /v1/run/abc: the server's certificate is not trusted: x509: "
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %q, want it to start with %q", err, want)
	}
	if _, sleeps := fake.Slept(); sleeps != 0 {
		t.Errorf("%d retries of an untrusted certificate", sleeps)
	}
}

func TestUnresolvableHostIsPermanent(t *testing.T) {
	const host = "testctl-nowhere.invalid"
	var dns *net.DNSError
	if _, err := net.LookupHost(host); !errors.As(err, &dns) || !dns.IsNotFound {
		t.Skipf("this machine's resolver does not say %s does not exist: %v", host, err)
	}
	for _, op := range []string{"GET", "POST"} {
		fake := clock.NewFake(time.Now())
		c := &Client{BaseURL: "https://" + host, APIKey: "secret-key-1234", Clock: fake, Retry: DefaultRetryPolicy}
		var err error
		if op == "GET" {
			_, err = c.GetRun(context.Background(), "abc", GetRunOptions{})
		} else {
			_, err = c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"})
		}
		if exitCodeOf(err) != 6 || IsTransient(err) {
			t.Fatalf("%s: got %v (transient %v), want a permanent failure with exit 6", op, err, IsTransient(err))
		}
		if !strings.Contains(err.Error(), ": the host name "+host+" does not resolve") {
			t.Errorf("%s: got %q, want the cause named", op, err)
		}
		if _, sleeps := fake.Slept(); sleeps != 0 {
			t.Errorf("%s: %d retries of a name that does not exist", op, sleeps)
		}
	}
}

func TestTransientFailuresStayTransient(t *testing.T) {
	for _, err := range []error{
		&TransportError{Err: io.EOF},
		&TransportError{Err: &net.DNSError{Err: "server misbehaving", Name: "x", IsTemporary: true}},
		&HTTPError{StatusCode: 503},
		&DecodeError{Err: io.ErrUnexpectedEOF},
	} {
		if !IsTransient(err) {
			t.Errorf("%v: not transient", err)
		}
	}
}

func TestFinalErrorSaysHowHardItTried(t *testing.T) {
	dropped := func(_ int, w http.ResponseWriter, _ *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		_ = conn.Close()
	}
	for name, answer := range map[string]func(int, http.ResponseWriter, *http.Request){
		"dropped": dropped, "503": status(http.StatusServiceUnavailable),
	} {
		c, _, _ := newTestClient(t, answer)
		_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
		// Full jitter at 0.5 over ceilings 1s, 2s, 4s.
		const want = "GET /v1/run/abc: 4 attempts over 3.5s: "
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want it to start with %q", name, err, want)
		}
		if strings.Contains(err.Error(), "127.0.0.1") {
			t.Errorf("%s: %q repeats the address the request went to", name, err)
		}
	}
	c, _, _ := newTestClient(t, status(http.StatusNotFound))
	if _, err := c.GetRun(context.Background(), "abc", GetRunOptions{}); strings.Contains(err.Error(), "attempt") {
		t.Errorf("a single attempt is counted: %v", err)
	}
}

// An https:// base URL on a plain-HTTP server (a local sandbox) fails the
// same way every time: not retried, and the message names the scheme, with
// the http:// address for a loopback host.
func TestPlainHTTPAnswerToHTTPSIsPermanent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	defer srv.Close()
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	host := strings.TrimPrefix(srv.URL, "http://")
	fake := clock.NewFake(time.Now())
	c := &Client{BaseURL: "https://" + host, APIKey: "secret-key-1234", HTTPClient: &http.Client{Transport: &http.Transport{}},
		Clock: fake, Retry: DefaultRetryPolicy}
	_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	if exitCodeOf(err) != 6 || IsTransient(err) {
		t.Fatalf("got %v (transient %v), want a permanent failure with exit 6", err, IsTransient(err))
	}
	want := "GET /v1/run/abc: the server answered in plain HTTP, not HTTPS: check the base URL's scheme (a local sandbox serves http://" + host + ")"
	if err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
	if _, sleeps := fake.Slept(); sleeps != 0 {
		t.Errorf("%d retries of a plain-HTTP answer", sleeps)
	}
}
