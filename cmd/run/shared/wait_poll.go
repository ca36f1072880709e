package shared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/termtext"
)

// MaxConsecutiveFailures is how many transient failures in a row end the
// wait on a run with exit 6. Fewer would let a brief outage fail a CI job
// whose run is still going.
const MaxConsecutiveFailures = 10

// poll asks for one run once and acts on the answer. It returns an error
// only for what must end the whole wait (or when ctx ended).
func (w *waiter) poll(ctx context.Context, s *runState) error {
	at := w.clk.Now()
	d, retryAfter, err := w.fetch(ctx, s.target.ShortID)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err == nil {
		w.observe(s, d)
		s.failures = 0
		s.nextAt = at.Add(w.opts.Interval)
		return nil
	}
	var he *api.HTTPError
	isHTTP := errors.As(err, &he)
	switch {
	case isHTTP && (he.StatusCode == http.StatusUnauthorized || he.StatusCode == http.StatusForbidden):
		return err
	case isHTTP && he.StatusCode == http.StatusNotFound && at.Before(s.visibleBy):
		// A run that was just created may not be visible yet.
		s.nextAt = at.Add(w.opts.Interval)
		return nil
	case api.IsTransient(err):
		s.failures++
		if s.failures >= MaxConsecutiveFailures {
			w.giveUp(s, cmdutil.ExitService, fmt.Errorf("run %s: giving up after %d failed requests in a row: %w", s.target.ShortID, s.failures, err))
			return nil
		}
		delay := retryDelay(s.failures, w.opts.Interval, retryAfter, w.jitter)
		if s.failures == 1 {
			// One line when a streak begins, not one per retry.
			w.view.notice(fmt.Sprintf("warning: run %s: %s; retrying (the wait goes on until --timeout)",
				s.target.ShortID, termtext.SanitizeLine(firstLine(err.Error()))))
		}
		s.nextAt = at.Add(delay)
		return nil
	case isHTTP:
		w.giveUp(s, cmdutil.ExitCodeOf(err), fmt.Errorf("run %s: %w", s.target.ShortID, err))
		return nil
	}
	return err // not an answer of the service: the configuration is broken
}

func (w *waiter) observe(s *runState, d *api.RunDetail) {
	changed, finished := s.observe(d)
	terminal := api.IsTerminalStatus(d.Status)
	if changed && !terminal {
		w.view.statusChanged(s, w.elapsed())
	}
	for _, tc := range finished {
		w.view.caseFinished(s, tc)
	}
	if terminal {
		s.done = true
		s.code = verdictCode(d, w.opts.FailOnSkipped)
		w.view.statusChanged(s, w.elapsed())
	}
}

func (w *waiter) giveUp(s *runState, code int, err error) {
	s.done, s.code, s.err = true, code, err
	w.view.notice("error: " + termtext.Sanitize(err.Error()))
}

// fetch reads a run with its test cases through Raw, which keeps the
// response headers: Retry-After lives there.
func (w *waiter) fetch(ctx context.Context, id string) (*api.RunDetail, time.Duration, error) {
	q := url.Values{"testCases": {"all"}}
	if w.client.ProjectShortID != "" {
		q.Set("projectShortId", w.client.ProjectShortID)
	}
	path := "/v1/run/" + url.PathEscape(id)
	resp, err := w.client.Raw(ctx, http.MethodGet, path, q, nil)
	if err != nil {
		var retryAfter time.Duration
		if resp != nil {
			retryAfter = api.ParseRetryAfter(resp.Header.Get("Retry-After"), w.clk.Now())
		}
		return nil, retryAfter, err
	}
	var d api.RunDetail
	shown := path + "?" + q.Encode()
	if err := json.Unmarshal(resp.Body, &d); err != nil {
		return nil, 0, &api.DecodeError{Method: http.MethodGet, Path: shown, Status: resp.StatusCode, Err: err}
	}
	if d.Status == "" {
		// A 200 without a status (a captive portal, a proxy's JSON) is
		// as unreadable as HTML: it says nothing about the run.
		return nil, 0, &api.DecodeError{Method: http.MethodGet, Path: shown, Status: resp.StatusCode, Err: errors.New("no run status in the answer")}
	}
	if d.ShortID == "" {
		d.ShortID = id
	}
	return &d, 0, nil
}

// retryDelay is the pause before retry number n (1-based): "equal jitter"
// over a ceiling that starts at the poll interval and doubles up to a
// minute, so never sooner than half an interval (the request budget holds)
// and so that many clients do not retry in step. A server's Retry-After is
// a floor.
func retryDelay(n int, interval, retryAfter time.Duration, jitter func() float64) time.Duration {
	ceiling := max(interval, maxRetryCeiling)
	d := interval
	for i := 1; i < n && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, ceiling)
	d = d/2 + time.Duration(jitter()*float64(d/2))
	return max(d, retryAfter)
}

const maxRetryCeiling = time.Minute

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
