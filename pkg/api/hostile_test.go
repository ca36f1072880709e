package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/clock"
)

// Hostile or broken answers must give a typed error with exit 6 and a
// printable message — never a panic, a hang or a terminal takeover.

func TestHugeBodyIsRefused(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		chunk := []byte(strings.Repeat(" ", 1<<20))
		_, _ = w.Write([]byte(`{"runs":[`))
		for i := 0; i < (maxBodyBytes>>20)+2; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	c.Retry.MaxRetries = 0
	_, err := c.ListRuns(context.Background(), ListRunsOptions{})
	var te *TransportError
	if !errors.As(err, &te) || te.ExitCode() != 6 || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("got %v, want a size refusal with exit 6", err)
	}
}

func TestSlowBodyPastTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"1",`))
		w.(http.Flusher).Flush()
		<-release // the rest of the body never comes in time
	}))
	defer srv.Close()
	defer close(release)
	c := &Client{BaseURL: srv.URL, APIKey: "k", HTTPClient: &http.Client{Timeout: 50 * time.Millisecond},
		Clock: clock.NewFake(time.Now()), Retry: RetryPolicy{MaxRetries: 2}, Rand: func() float64 { return 0 }}
	_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	var te *TransportError
	if !errors.As(err, &te) || te.ExitCode() != 6 {
		t.Fatalf("got %v, want a transport error after the timeout", err)
	}
}

func TestUnknownEnumsAndFieldsAreKept(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"id":"1","shortId":"s","status":"PAUSED","result":"FLAKY","brandNew":{"x":1},
			"runTestCases":[{"shortId":"t","status":"QUARANTINED","result":"UNKNOWN","promptExamples":null}]}`))
	})
	run, err := c.GetRun(context.Background(), "s", GetRunOptions{TestCases: "all"})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != "PAUSED" || run.ResultOrEmpty() != "FLAKY" || run.RunTestCases[0].Status != "QUARANTINED" {
		t.Errorf("unknown enum values were not kept: %+v", run)
	}
	if IsTerminalStatus(run.Status) {
		t.Error("an unknown status must not count as terminal")
	}
}

func TestWrongJSONTypesAreDecodeErrors(t *testing.T) {
	for _, body := range []string{`[]`, `{"runTestCases":"nope"}`, `{"status":42}`, `null x`} {
		c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(body)) })
		_, err := c.GetRun(context.Background(), "s", GetRunOptions{})
		var de *DecodeError
		if !errors.As(err, &de) || de.ExitCode() != 6 {
			t.Errorf("%s: got %v, want a DecodeError", body, err)
		}
	}
}

func TestErrorBodiesOfEveryShape(t *testing.T) {
	bodies := map[string]string{
		`{"message":"bad plan"}`:    "bad plan",
		`{"statusText":"legacy"}`:   "legacy",
		`<html>oops</html>`:         "<html>oops</html>",
		``:                          "HTTP 400",
		`{"message":"\u001b[2Jhi"}`: "hi",
	}
	for body, want := range bodies {
		c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(body))
		})
		_, err := c.GetRun(context.Background(), "s", GetRunOptions{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v lacks %q", body, err, want)
		}
	}
}

func TestIsTransient(t *testing.T) {
	cases := map[error]bool{
		&HTTPError{StatusCode: 408}:               true,
		&HTTPError{StatusCode: 429}:               true,
		&HTTPError{StatusCode: 500}:               true,
		&HTTPError{StatusCode: 503}:               true,
		&HTTPError{StatusCode: 400}:               false,
		&HTTPError{StatusCode: 401}:               false,
		&HTTPError{StatusCode: 402}:               false,
		&HTTPError{StatusCode: 404}:               false,
		&TransportError{Err: errors.New("reset")}: true,
		&DecodeError{Err: errors.New("html")}:     true,
		context.Canceled:                          false,
		&InsecureTransportError{Host: "x"}:        false,
	}
	for err, want := range cases {
		if got := IsTransient(err); got != want {
			t.Errorf("IsTransient(%v) = %v, want %v", err, got, want)
		}
	}
}
