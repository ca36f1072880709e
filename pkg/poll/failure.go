package poll

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// MaxConsecutiveFailures is how many transient failures in a row give a
// target up (exit 6). Fewer would let a brief outage fail a CI job whose run
// is still going.
const MaxConsecutiveFailures = 10

// maxRetryCeiling caps the backoff between two retries.
const maxRetryCeiling = time.Minute

// afterFailure applies the failure rules to a poll of t at `at` that failed:
//
//   - a 404 before t.VisibleBy is polled again after the interval;
//   - a transient failure (5xx, 429, 408, a dropped connection, an
//     unreadable answer) is retried with backoff, Retry-After a floor, until
//     MaxConsecutiveFailures in a row give the target up;
//   - any other answer of the service gives the target up, a rejected key
//     (401, 403) too: a key may be refused for one project's run and not
//     another's, and the other targets keep their verdicts and reports;
//   - an id that cannot be sent (api.InvalidIDError: the service named a
//     run so) gives that target up too, never having reached the service;
//   - anything else (not an answer: a broken configuration) ends the wait.
func (l *Loop) afterFailure(t *Target, at time.Time, o Outcome) error {
	he, isHTTP := errors.AsType[*api.HTTPError](o.Err)
	_, badID := errors.AsType[*api.InvalidIDError](o.Err)
	switch {
	case isHTTP && he.StatusCode == http.StatusNotFound && at.Before(t.VisibleBy):
		t.answered, t.lastErr = true, nil // an answer: not visible yet
		l.schedule(t, at.Add(l.Interval))
	case api.IsTransient(o.Err):
		t.failures++
		t.lastErr = o.Err
		if t.failures >= MaxConsecutiveFailures {
			l.giveUp(t, fmt.Errorf("%s: giving up after %d failed requests in a row: %w", t.Name, t.failures, o.Err))
			return nil
		}
		if t.failures == 1 && l.Retrying != nil {
			l.Retrying(t, o.Err)
		}
		l.schedule(t, at.Add(retryDelay(t.failures, l.Interval, o.RetryAfter, rand.Float64)))
	case isHTTP || badID:
		l.giveUp(t, fmt.Errorf("%s: %w", t.Name, o.Err))
	default:
		return o.Err
	}
	return nil
}

func (l *Loop) giveUp(t *Target, err error) {
	t.done, t.err = true, err
	if l.GaveUp != nil {
		l.GaveUp(t)
	}
}

// retryDelay is the pause before retry number n (1-based): "equal jitter"
// over a ceiling that starts at the poll interval and doubles up to a
// minute, so never sooner than half an interval (the request budget holds)
// and so that many clients do not retry in step. A server's Retry-After is
// a floor.
func retryDelay(n int, interval, retryAfter time.Duration, jitter func() float64) time.Duration {
	d := api.Backoff(n, interval, maxRetryCeiling)
	d = d/2 + time.Duration(jitter()*float64(d/2))
	return max(d, retryAfter)
}
