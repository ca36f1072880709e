// Package appready waits until the applications a run is to test answer:
// each URL is asked (GET, without the service's key, redirects followed
// within its origin only) until it answers 2xx twice in a row, with
// backoff, before a deadline. A redirect to another origin (a protection's
// login page) or a 401/403 is "not ready", and named. Query values of the
// URLs, which may carry a protection-bypass token, are never shown.
package appready

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/termtext"
)

// Backoff bounds: the first pause, and the longest.
const (
	firstPause = time.Second
	maxPause   = 15 * time.Second
	// requestTimeout bounds one request, within the deadline.
	requestTimeout = 10 * time.Second
	// readyAfter is how many 2xx answers in a row make a URL ready: a
	// preview that answers once between two restarts is not.
	readyAfter = 2
	// heartbeat is how often an unchanged wait says it is still waiting.
	heartbeat = 30 * time.Second
	// maxRedirects within the origin.
	maxRedirects = 10
)

// Waiter waits for URLs.
type Waiter struct {
	Clock clock.Clock
	// Transport sends the requests; nil: a clone of http.DefaultTransport.
	Transport http.RoundTripper
	// Progress gets a line (without its newline) when the state of a
	// wait changes, and now and then while it does not.
	Progress func(line string)
}

// NotReadyError is a URL that did not become ready before the deadline:
// exit 7, nothing started.
type NotReadyError struct {
	URL    string // redacted
	Why    string // the last answer: "HTTP 401", "redirected to …"
	Waited time.Duration
}

func (e *NotReadyError) Error() string {
	return fmt.Sprintf("%s was not ready after %s (last: %s): nothing was started; raise --wait-for-app if it needs longer",
		e.URL, e.Waited.Round(time.Second), e.Why)
}

// ExitCode is the contract's 7: an application never ready in time.
func (e *NotReadyError) ExitCode() int { return exitcode.Timeout }

// Wait waits for each URL in turn, all before deadline. It returns a
// *NotReadyError for the first that is not ready in time, or ctx's error.
func (w *Waiter) Wait(ctx context.Context, urls []string, deadline time.Time) error {
	for _, u := range urls {
		if err := w.waitOne(ctx, u, deadline); err != nil {
			return err
		}
	}
	return nil
}

func (w *Waiter) waitOne(ctx context.Context, raw string, deadline time.Time) error {
	shown := termtext.SanitizeLine(Redact(raw))
	client := w.client()
	start := w.Clock.Now()
	ok, last, lastSaid, said := 0, "", time.Time{}, ""
	for attempt := 1; ; attempt++ {
		why := w.check(ctx, client, raw, deadline)
		if err := ctx.Err(); err != nil {
			return err
		}
		now := w.Clock.Now()
		if why == "" {
			ok++
			if ok >= readyAfter {
				w.say(fmt.Sprintf("%s is ready: it answered 2xx %d times in a row", shown, readyAfter))
				return nil
			}
		} else {
			ok, last = 0, why
			if why != said || now.Sub(lastSaid) >= heartbeat {
				w.say(fmt.Sprintf("waiting for %s: %s (%s of %s)", shown, why,
					now.Sub(start).Round(time.Second), deadline.Sub(start).Round(time.Second)))
				said, lastSaid = why, now
			}
		}
		pause := firstPause // a success is confirmed soon
		if ok == 0 {
			pause = api.Backoff(attempt, firstPause, maxPause)
		}
		if now.Add(pause).After(deadline) {
			if last == "" {
				last = "it answered 2xx only once"
			}
			return &NotReadyError{URL: shown, Why: last, Waited: now.Sub(start)}
		}
		if err := w.Clock.Sleep(ctx, pause); err != nil {
			return err
		}
	}
}

// check asks raw once: "" when it answered 2xx, else why it is not ready.
func (w *Waiter) check(ctx context.Context, client *http.Client, raw string, deadline time.Time) string {
	ctx, cancel := context.WithTimeout(ctx, min(requestTimeout, max(deadline.Sub(w.Clock.Now()), time.Second)))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return "not a URL that can be asked"
	}
	req.Header.Set("User-Agent", "testctl (waiting for the application)")
	resp, err := client.Do(req)
	if err != nil {
		if off, ok := errors.AsType[*offOriginError](err); ok {
			return off.Error()
		}
		if ctx.Err() == context.DeadlineExceeded {
			return "no answer within " + requestTimeout.String()
		}
		return "cannot connect: " + cause(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	switch code := resp.StatusCode; {
	case code >= 200 && code <= 299:
		return ""
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Sprintf("HTTP %d: a protection asks for a login (a bypass token in the URL's query lets testctl in)", code)
	case code >= 300 && code <= 399:
		return fmt.Sprintf("HTTP %d: a redirect that was not followed", code)
	default:
		return fmt.Sprintf("HTTP %d", code)
	}
}

// client is a fresh client for one URL: no key, a cookie jar of its own
// (a bypass token's cookie, set on the first answer, is sent on the
// redirect that follows), redirects within the origin only.
func (w *Waiter) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	rt := w.Transport
	if rt == nil {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	return &http.Client{Transport: rt, Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if !api.SameOrigin(via[0], req) {
			return &offOriginError{to: req.URL}
		}
		if len(via) >= maxRedirects {
			return errors.New("too many redirects")
		}
		return nil
	}}
}

// offOriginError is a redirect to another origin: a login page, most
// likely, and not the application.
type offOriginError struct{ to *url.URL }

func (e *offOriginError) Error() string {
	u := *e.to
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return "redirected off its origin, to " + termtext.SanitizeLine(u.String()) + " (a protection's login page?)"
}

// cause is a transport error without the URL that net/http quotes (its
// query is not to be shown).
func cause(err error) string {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		err = ue.Err
	}
	return termtext.SanitizeLine(strings.TrimSpace(err.Error()))
}

func (w *Waiter) say(line string) {
	if w.Progress != nil {
		w.Progress(line)
	}
}
