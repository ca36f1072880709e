// Package api is the typed client of the Test Run Orchestration Service: wire
// models, requests, retries and errors. It never prints anything but the
// --debug log it is handed.
package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/nextstep"
)

// maxBodyBytes bounds what one response may make us hold in memory.
const maxBodyBytes = 64 << 20

// errBodyTooLarge refuses an answer over maxBodyBytes. It is not retried:
// the same request would fetch the same oversized body again.
var errBodyTooLarge = fmt.Errorf("response body larger than %d MiB", maxBodyBytes>>20)

// Client talks to one service deployment with one key.
type Client struct {
	BaseURL       string // without /v1
	LegacyBaseURL string
	APIKey        string
	// ProjectShortID is sent as projectShortId where the operation takes one;
	// required with organization-scoped keys.
	ProjectShortID    string
	AllowInsecureHTTP bool
	HTTPClient        *http.Client
	UserAgent         string
	Clock             clock.Clock
	Retry             RetryPolicy
	Debug             io.Writer      // nil: no debug log
	Rand              func() float64 // jitter source; nil: math/rand
	// OnRetry is told of every pause longer than announcedPause before a
	// retry, so a command never sits silent (nil: nobody is told).
	OnRetry func(RetryPause)
}

// UserAgent builds the User-Agent header value for a version.
func UserAgent(version string) string {
	return fmt.Sprintf("testctl/%s (%s/%s)", version, runtime.GOOS, runtime.GOARCH)
}

// WithRetries returns a copy of c with a different retry budget, for callers
// such as run wait that pace their own retries.
func (c *Client) WithRetries(n int) *Client {
	cp := *c
	cp.Retry.MaxRetries = n
	return &cp
}

// request is one logical call; attempts may repeat it. A body is JSON.
type request struct {
	method string
	base   string // BaseURL or LegacyBaseURL
	path   string
	query  url.Values
	body   []byte
}

// Response is a raw answer, for the api command.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

func (c *Client) clock() clock.Clock {
	if c.Clock == nil {
		return clock.Real{}
	}
	return c.Clock
}

func (c *Client) rand() float64 {
	if c.Rand != nil {
		return c.Rand()
	}
	return rand.Float64()
}

// getJSON performs a GET and decodes the JSON answer into a new T.
func getJSON[T any](ctx context.Context, c *Client, base, path string, query url.Values) (*T, error) {
	return call[T](ctx, c, request{method: http.MethodGet, base: base, path: path, query: query})
}

// postJSON sends in as JSON and decodes the answer into a new T.
func postJSON[T any](ctx context.Context, c *Client, path string, in any) (*T, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("encoding request: %w", err)
	}
	return call[T](ctx, c, request{method: http.MethodPost, base: c.BaseURL, path: path, body: body})
}

// call performs r and decodes its JSON answer into a new T.
func call[T any](ctx context.Context, c *Client, r request) (*T, error) {
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	out := new(T)
	if err := decode(r.method, pathWithQuery(r.path, r.query), resp, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Raw performs any request, for operations without published shapes. A
// non-2xx answer is returned together with an *HTTPError.
func (c *Client) Raw(ctx context.Context, method, path string, query url.Values, body []byte) (*Response, error) {
	return c.do(ctx, request{method: method, base: c.BaseURL, path: path, query: query, body: body})
}

// retryOn says whether a failed attempt of r may be repeated: a read
// whenever the failure is transient, a write only when the server surely
// did not act on it.
func (r request) retryOn(status int, err error) bool {
	read := r.method == http.MethodGet || r.method == http.MethodHead
	switch {
	case err != nil:
		return (read || notSent(err)) && !permanent(err)
	case read:
		return retryableStatus(status)
	}
	return status == http.StatusTooManyRequests
}

func (c *Client) url(r request) (string, error) {
	if r.base == "" {
		return "", errors.New("no base URL configured")
	}
	u, err := url.Parse(strings.TrimRight(r.base, "/") + r.path)
	if err != nil {
		return "", fmt.Errorf("invalid base URL %q: %w", r.base, err)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return "", fmt.Errorf("invalid base URL %q: it must start with https://", r.base)
	}
	if u.Scheme == "http" && c.APIKey != "" && !c.AllowInsecureHTTP && !IsLoopback(u.Hostname()) {
		return "", &InsecureTransportError{Host: u.Host}
	}
	if len(r.query) > 0 {
		u.RawQuery = r.query.Encode()
	}
	return u.String(), nil
}

// IsLoopback reports whether host names this machine: a key may travel
// there over plain http, and a poll may come as often as a test likes.
func IsLoopback(host string) bool {
	// Not a name under .localhost: the resolver may ask DNS for it, and
	// an answer with a public address would get the key in clear.
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (c *Client) attempt(ctx context.Context, r request, target string, n int) (*Response, error) {
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, body)
	if err != nil {
		return nil, err
	}
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	req.Header.Set("Accept", "application/json")
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	c.logRequest(req, r.body, n)
	start := time.Now()
	// The redirect policy guards the key, so it is the client's own, whatever
	// HTTPClient was given.
	var hc http.Client
	if c.HTTPClient != nil {
		hc = *c.HTTPClient
	}
	hc.CheckRedirect = c.checkRedirect
	resp, err := hc.Do(req)
	if err != nil {
		c.debugf("< error after %s: %v\n", time.Since(start).Round(time.Millisecond), c.redactText(err.Error()))
		return nil, err
	}
	defer resp.Body.Close()
	if resp.ContentLength > maxBodyBytes {
		return nil, errBodyTooLarge // declared too large: not downloaded at all
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		c.debugf("< HTTP %d, body failed after %s: %v\n", resp.StatusCode, time.Since(start).Round(time.Millisecond), err)
		return nil, err
	}
	if len(data) > maxBodyBytes {
		return nil, errBodyTooLarge
	}
	forms := keyForms(c.APIKey) // worked out once for the body and every header
	hide := concealed(ctx)
	data = []byte(hide.Replace(string(redact(data, forms))))
	for _, values := range resp.Header {
		for i, v := range values {
			values[i] = hide.Replace(string(redact([]byte(v), forms)))
		}
	}
	c.logResponse(resp, data, time.Since(start))
	return &Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// minRedactedKey is the shortest key redact replaces: real keys are
// long, and replacing a one-letter test key would garble every answer.
const minRedactedKey = 8

// keyForms are the forms an answer may quote key in: as sent, as a URL
// carries it (a redirect's ?token=, a path), and as JSON quotes it (Go's
// and JavaScript's escapes, and PHP's "\/"); none for a key too short to
// search for.
func keyForms(key string) []string {
	if len(key) < minRedactedKey {
		return nil
	}
	quoted, _ := json.Marshal(key)
	inJSON := string(quoted[1 : len(quoted)-1])
	forms := []string{key}
	for _, f := range []string{url.QueryEscape(key), url.PathEscape(key), inJSON, strings.ReplaceAll(inJSON, "/", `\/`)} {
		if !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	return forms
}

// redact replaces every form of the key in data. Answers are printed
// (data, error messages, excerpts, --debug, api --include), and a service
// or proxy that echoes the request's credentials must not put them in a
// terminal or a CI log.
func redact(data []byte, forms []string) []byte {
	for _, form := range forms {
		if bytes.Contains(data, []byte(form)) {
			data = bytes.ReplaceAll(data, []byte(form), []byte("[REDACTED]"))
		}
	}
	return data
}

// redactText is redact for text: an error (the HTTP layer quotes URLs,
// and a redirect's Location can carry the key) or the --debug log.
func (c *Client) redactText(s string) string { return string(redact([]byte(s), keyForms(c.APIKey))) }

// concealKey holds the replacer of WithConcealed in a context.
type concealKey struct{}

// WithConcealed is ctx, whose requests' answers and --debug lines show
// each old of pairs (old, new, old, new, …) as its new: further text
// than the key that must not show, such as the query values of an
// application URL (a protection-bypass token), which the evidence of a
// tested page quotes.
func WithConcealed(ctx context.Context, pairs ...string) context.Context {
	if len(pairs) < 2 {
		return ctx
	}
	return context.WithValue(ctx, concealKey{}, strings.NewReplacer(pairs...))
}

// concealed is ctx's replacer of WithConcealed; one that changes nothing
// when there is none.
func concealed(ctx context.Context) *strings.Replacer {
	if r, ok := ctx.Value(concealKey{}).(*strings.Replacer); ok {
		return r
	}
	return strings.NewReplacer()
}

func httpError(method, path string, resp *Response, steps nextstep.Renderer) *HTTPError {
	e := &HTTPError{StatusCode: resp.StatusCode, Method: method, Path: path}
	var body ErrorBody
	if json.Unmarshal(resp.Body, &body) == nil {
		e.Message = cmp.Or(body.Message, body.StatusText)
	} else if len(resp.Body) > 0 {
		e.Message = excerpt(resp.Body)
	}
	e.Hint = hintFor(e.StatusCode, path, e.Message, steps)
	return e
}

func decode(method, path string, resp *Response, out any) error {
	if len(bytes.TrimSpace(resp.Body)) == 0 {
		return &DecodeError{Method: method, Path: path, Status: resp.StatusCode, Err: errors.New("empty body")}
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return &DecodeError{Method: method, Path: path, Status: resp.StatusCode, Excerpt: excerpt(resp.Body), Err: err}
	}
	KeepRaw(out, resp.Body)
	return nil
}

func pathWithQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}
