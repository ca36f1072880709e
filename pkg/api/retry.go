package api

import (
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"
)

// RetryPolicy says how often and how patiently a request is repeated.
type RetryPolicy struct {
	MaxRetries int           // retries after the first attempt
	BaseDelay  time.Duration // first backoff ceiling; doubles per retry
	MaxDelay   time.Duration // ceiling of one backoff (never below BaseDelay)
}

// DefaultRetryPolicy matches what the service's own CI integration tolerates.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 3, BaseDelay: time.Second, MaxDelay: 30 * time.Second}

// maxRetryAfter caps a server's Retry-After so a bad header cannot park a CI job.
const maxRetryAfter = 60 * time.Second

// retryableStatus lists the answers that mean "try again" for a GET.
func retryableStatus(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError,
		http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// notSent reports whether a transport error surely happened before the
// request reached the server: only then may a POST be repeated, because a
// second POST /v1/run that the server did receive would start a second run.
func notSent(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	if _, ok := errors.AsType[*net.DNSError](err); ok {
		return true
	}
	opErr, ok := errors.AsType[*net.OpError](err)
	return ok && opErr.Op == "dial"
}

// backoff returns the wait before retry number attempt (1-based): full jitter
// over Backoff's ceiling, or the server's Retry-After when given.
func (p RetryPolicy) backoff(attempt int, retryAfter time.Duration, rnd func() float64) time.Duration {
	if retryAfter > 0 {
		return min(retryAfter, maxRetryAfter)
	}
	return time.Duration(rnd() * float64(Backoff(attempt, p.BaseDelay, p.MaxDelay)))
}

// Backoff is the ceiling of the pause before retry number n (1-based):
// base, doubled for each retry before it, at most max(limit, base). Callers
// choose their jitter under it: the client takes a random share of it (full
// jitter), a wait at least half of it, so it never polls faster than half
// its interval.
func Backoff(n int, base, limit time.Duration) time.Duration {
	ceiling := max(base, limit)
	d := base
	for i := 1; i < n && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}

// ParseRetryAfter reads a Retry-After header in seconds or as an HTTP
// date, capped at maxRetryAfter.
func ParseRetryAfter(value string, now time.Time) time.Duration {
	return min(retryAfterAsked(value, now), maxRetryAfter)
}

// retryAfterAsked is the pause a Retry-After header asks for, uncapped.
func retryAfterAsked(value string, now time.Time) time.Duration {
	if value == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(value, 10, 64); err == nil {
		if secs < 0 {
			return 0
		}
		return time.Duration(min(secs, int64(math.MaxInt64/time.Second))) * time.Second
	}
	if at, err := http.ParseTime(value); err == nil {
		return max(at.Sub(now), 0)
	}
	return 0
}
