package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func retryAfter(value string) func(int, http.ResponseWriter, *http.Request) {
	return func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			w.Header().Set("Retry-After", value)
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte(`{"id":"1","shortId":"abc","status":"RUNNING","result":null,"runTestCases":[]}`))
	}
}

func TestLongRetryAfterEndsAOneShotCallAtOnce(t *testing.T) {
	c, rec, fake := newTestClient(t, retryAfter("86400"))
	var pauses []RetryPause
	c.OnRetry = func(p RetryPause) { pauses = append(pauses, p) }
	_, err := c.GetRun(context.Background(), "abc", GetRunOptions{})
	if exitCodeOf(err) != 6 || !strings.Contains(err.Error(), "24h0m0s (Retry-After: 86400)") {
		t.Fatalf("got %v, want exit 6 with the Retry-After given", err)
	}
	if slept, _ := fake.Slept(); rec.count() != 1 || slept != 0 || len(pauses) != 0 {
		t.Errorf("%d requests, slept %s, %d pauses announced: want one request and no wait", rec.count(), slept, len(pauses))
	}
}

func TestRetryAfterUpToTenSecondsIsWaitedOutAndAnnounced(t *testing.T) {
	c, rec, fake := newTestClient(t, retryAfter("10"))
	var pauses []RetryPause
	c.OnRetry = func(p RetryPause) { pauses = append(pauses, p) }
	if _, err := c.GetRun(context.Background(), "abc", GetRunOptions{}); err != nil {
		t.Fatal(err)
	}
	if slept, _ := fake.Slept(); rec.count() != 2 || slept != 10*time.Second {
		t.Errorf("%d requests, slept %s: want the Retry-After waited out", rec.count(), slept)
	}
	const want = "GET /v1/run/abc: HTTP 429 Too Many Requests; retrying in 10s (attempt 2 of 4)"
	if len(pauses) != 1 || pauses[0].String() != want {
		t.Errorf("announced %v, want one %q", pauses, want)
	}
}

func TestShortPausesAreNotAnnounced(t *testing.T) {
	// The first backoff is at most 1 s.
	c, rec, _ := newTestClient(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		retryAfter("")(2, w, r)
	})
	c.OnRetry = func(p RetryPause) { t.Errorf("announced %v", p) }
	if _, err := c.GetRun(context.Background(), "abc", GetRunOptions{}); err != nil || rec.count() != 2 {
		t.Fatalf("err=%v after %d requests", err, rec.count())
	}
}

func TestBackoffOverTwoSecondsIsAnnounced(t *testing.T) {
	c, _, _ := newTestClient(t, status(http.StatusServiceUnavailable))
	c.Rand = func() float64 { return 1 } // ceilings 1s, 2s, 4s
	var waits []time.Duration
	c.OnRetry = func(p RetryPause) { waits = append(waits, p.Wait) }
	_, _ = c.GetRun(context.Background(), "abc", GetRunOptions{})
	if len(waits) != 1 || waits[0] != 4*time.Second {
		t.Errorf("announced %v, want the 4s pause only", waits)
	}
}

// The date is a minute after the fake clock newTestClient starts at.
func TestLongRetryAfterEndsAStartAtOnce(t *testing.T) {
	c, rec, fake := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", time.Date(2026, 11, 21, 12, 1, 0, 0, time.UTC).Format(http.TimeFormat))
		w.WriteHeader(http.StatusTooManyRequests)
	})
	_, err := c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"})
	if exitCodeOf(err) != 6 || !strings.Contains(err.Error(), "called again in 1m0s") {
		t.Fatalf("got %v, want exit 6 with the Retry-After given", err)
	}
	if slept, _ := fake.Slept(); rec.count() != 1 || slept != 0 {
		t.Errorf("%d POSTs, slept %s: want one and no wait", rec.count(), slept)
	}
}

func TestBackoffDoublesFromBaseUpToTheLimit(t *testing.T) {
	for _, tt := range []struct {
		n           int
		base, limit time.Duration
		want        time.Duration
	}{
		{1, time.Second, 30 * time.Second, time.Second},
		{3, time.Second, 30 * time.Second, 4 * time.Second},
		{6, time.Second, 30 * time.Second, 30 * time.Second},
		{1000, time.Second, 30 * time.Second, 30 * time.Second}, // no overflow
		{4, 2 * time.Minute, time.Minute, 2 * time.Minute},      // never below base
		{2, 0, 0, 0},
	} {
		if got := Backoff(tt.n, tt.base, tt.limit); got != tt.want {
			t.Errorf("Backoff(%d, %s, %s) = %s, want %s", tt.n, tt.base, tt.limit, got, tt.want)
		}
	}
}
