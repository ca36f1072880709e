package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/testctl/testctl/pkg/nextstep"
)

// announcedPause is the longest pause before a retry that goes unannounced:
// anything longer is told to OnRetry, so that a command never sits silent.
const announcedPause = 2 * time.Second

// maxOneShotRetryAfter is the longest Retry-After the client waits out. A
// one-shot command told to come back later than this fails at once, saying
// when to try again, rather than holding a terminal or a CI job. Waits pace
// their own retries (they run with no retry budget) and are not bound by it.
const maxOneShotRetryAfter = 10 * time.Second

// RetryPause is a pause the client is about to take before repeating a
// request.
type RetryPause struct {
	Method, Path string
	Attempt      int // the attempt that failed, from 1
	MaxAttempts  int
	Wait         time.Duration
	Reason       string // why the attempt failed, plainly, without service text
}

func (p RetryPause) String() string {
	return fmt.Sprintf("%s %s: %s; retrying in %s (attempt %d of %d)",
		p.Method, p.Path, p.Reason, roundElapsed(p.Wait), p.Attempt+1, p.MaxAttempts)
}

// do runs the attempts of one request. Every non-2xx final answer becomes an
// *HTTPError; the Response is returned alongside for callers that want the body.
func (c *Client) do(ctx context.Context, r request) (*Response, error) {
	target, err := c.url(r)
	if err != nil {
		return nil, err
	}
	shown := pathWithQuery(r.path, r.query)
	began := c.clock().Now()
	for attempt := 1; ; attempt++ {
		resp, err := c.attempt(ctx, r, target, attempt)
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		if err == nil && status < 300 {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var asked time.Duration
		if resp != nil {
			asked = retryAfterAsked(resp.Header.Get("Retry-After"), c.clock().Now())
		}
		if attempt > c.Retry.MaxRetries || !r.retryOn(status, err) {
			return resp, c.failed(ctx, r.method, shown, resp, err, attempt, c.clock().Now().Sub(began))
		}
		if asked > maxOneShotRetryAfter {
			he := c.failed(ctx, r.method, shown, resp, nil, attempt, c.clock().Now().Sub(began)).(*HTTPError)
			he.Hint = fmt.Sprintf("The service asked to be called again in %s (Retry-After: %s), "+
				"which is longer than testctl waits: try again then.", asked, excerpt([]byte(resp.Header.Get("Retry-After"))))
			return resp, he
		}
		wait := c.Retry.backoff(attempt, asked, c.rand)
		c.debugf("* retry %d/%d in %s\n", attempt, c.Retry.MaxRetries, wait.Round(time.Millisecond))
		if wait > announcedPause && c.OnRetry != nil {
			c.OnRetry(RetryPause{Method: r.method, Path: shown, Attempt: attempt, MaxAttempts: c.Retry.MaxRetries + 1,
				Wait: wait, Reason: c.reason(status, err)})
		}
		if err := c.clock().Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// failed is the error of a request that will not be repeated: an
// *HTTPError for an answer, a *TransportError when there was none.
func (c *Client) failed(ctx context.Context, method, path string, resp *Response, err error, attempts int, elapsed time.Duration) error {
	if err != nil {
		return &TransportError{Method: method, Path: path, Err: err, Attempts: attempts, Elapsed: elapsed,
			shown: c.redactText(cause(err))}
	}
	he := httpError(method, path, resp, nextstep.From(ctx))
	// Redacted again once decoded: JSON may escape the key ("sk-a\/b").
	he.Message, he.Hint = c.redactText(he.Message), c.redactText(he.Hint)
	he.Attempts, he.Elapsed = attempts, elapsed
	he.RetryAfter = ParseRetryAfter(resp.Header.Get("Retry-After"), c.clock().Now())
	return he
}

// reason is why an attempt failed, for a retry notice: the status line,
// not the service's message, which the final error will show if it comes to that.
func (c *Client) reason(status int, err error) string {
	if err != nil {
		return c.redactText(cause(err))
	}
	return fmt.Sprintf("HTTP %d %s", status, http.StatusText(status))
}
