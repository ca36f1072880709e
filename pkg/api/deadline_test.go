package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/clock"
)

// A body that trickles in must not hold a request past its deadline: the
// caller's context and --http-timeout both cover reading the body. Real
// time is unavoidable here; only the kind of error is asserted.

func trickle(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"id":`))
		for {
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(10 * time.Millisecond):
				_, _ = w.Write([]byte(" "))
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestCallerDeadlineCancelsABodyRead(t *testing.T) {
	srv := trickle(t)
	c := &Client{BaseURL: srv.URL, APIKey: "k", HTTPClient: &http.Client{Timeout: time.Hour},
		Clock: clock.NewFake(time.Now()), Retry: DefaultRetryPolicy}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.GetRun(ctx, "abc", GetRunOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the caller's deadline", err)
	}
}

func TestHTTPTimeoutCoversTheBodyRead(t *testing.T) {
	srv := trickle(t)
	c := &Client{BaseURL: srv.URL, APIKey: "k", HTTPClient: &http.Client{Timeout: 100 * time.Millisecond},
		Clock: clock.NewFake(time.Now()), Retry: RetryPolicy{}}
	_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	var te *TransportError
	var timeout interface{ Timeout() bool }
	if !errors.As(err, &te) || !errors.As(err, &timeout) || !timeout.Timeout() {
		t.Fatalf("got %v, want a timeout while the body was read", err)
	}
}
