package prcomment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/termtext"
)

// maxAnswer bounds what is read of an answer: a page of 100 comments of
// up to 64 KiB each fits.
const maxAnswer = 16 << 20

// restAPI is a code host's REST API, with the token in one header.
type restAPI struct {
	base       string // no trailing slash
	client     *http.Client
	debug      io.Writer
	authHeader string // the header that carries the token
	authValue  string // its value: the token, maybe with a scheme
	token      string // redacted wherever it might show
	headers    map[string]string
}

func newRESTAPI(env Env, base, authHeader, authValue, token string, headers map[string]string) *restAPI {
	client := &http.Client{CheckRedirect: sameOrigin}
	return &restAPI{base: strings.TrimRight(base, "/"), client: client, debug: env.Debug,
		authHeader: authHeader, authValue: authValue, token: token, headers: headers}
}

// sameOrigin follows a redirect of a GET only to the same origin
// (api.SameOrigin), as the service's client does: Go drops the
// Authorization header on the way to another host, but not GitLab's
// PRIVATE-TOKEN, and not on the way to another port. A write is never
// followed (a 301 would turn it into a GET, a 307 send it elsewhere).
func sameOrigin(req *http.Request, via []*http.Request) error {
	first := via[0]
	switch {
	case first.Method != http.MethodGet:
		return fmt.Errorf("%s answered with a redirect: not followed", first.Method)
	case !api.SameOrigin(first, req):
		return fmt.Errorf("redirected to another origin (%s://%s): not followed with the token", req.URL.Scheme, req.URL.Host)
	case len(via) >= 5:
		return errors.New("too many redirects")
	}
	return nil
}

// checkBase refuses an API address that would carry the token in clear:
// plain http only to this machine, as the service's key.
func checkBase(variable, base string) error {
	u, err := url.Parse(base)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return &Unavailable{Why: fmt.Sprintf("%s (%q) is not an http(s) address", variable, base)}
	case u.User != nil || u.RawQuery != "":
		return &Unavailable{Why: variable + " carries credentials or a query", Fix: "Set it to the API's address alone"}
	case u.Scheme == "http" && !api.IsLoopback(u.Hostname()):
		return &Unavailable{Why: fmt.Sprintf("%s (%s) is plain http: the token would travel in clear", variable, u.Redacted()),
			Fix: "Use its https address"}
	}
	return nil
}

// httpError is an answer that is not a success: an HTTP status, or a
// GraphQL error (answered with 200) and the status its type stands for.
type httpError struct {
	status  int
	graphQL string // the GraphQL error's type, "" for an HTTP error
	message string // the answer's own message, sanitised
}

func (e *httpError) Error() string {
	if e.graphQL != "" {
		return "GraphQL " + e.graphQL + ": " + e.message
	}
	if e.message == "" {
		return fmt.Sprintf("HTTP %d", e.status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, e.message)
}

// do sends one request (in encoded as JSON when not nil) and decodes a
// successful answer into out (when not nil). query may be nil.
func (a *restAPI) do(ctx context.Context, method, path string, query url.Values, in, out any) error {
	u := a.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return a.redactErr(err)
	}
	req.Header.Set(a.authHeader, a.authValue)
	req.Header.Set("User-Agent", "testctl")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range a.headers {
		req.Header.Set(k, v)
	}
	a.trace("> %s %s\n> %s: [REDACTED]\n", method, u, a.authHeader)
	start := time.Now()
	resp, err := a.client.Do(req)
	if err != nil {
		a.trace("< %s\n", err)
		if ctx.Err() != nil {
			return ctx.Err() // a timeout is said as such, not as a transport error
		}
		return a.redactErr(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	a.trace("< HTTP %d in %s\n", resp.StatusCode, time.Since(start).Round(time.Millisecond))
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return a.redactErr(err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &httpError{status: resp.StatusCode, message: a.redact(answerMessage(data))}
	}
	if len(data) > maxAnswer {
		return fmt.Errorf("%s %s: the answer is larger than %d bytes", method, path, maxAnswer)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: unreadable answer: %v", method, path, err)
		}
	}
	return nil
}

// answerMessage is the message of an error answer, on one line and short:
// GitHub's {"message"}, GitLab's {"message"} (a string or an object) or
// {"error"}.
func answerMessage(data []byte) string {
	var doc struct {
		Message any    `json:"message"`
		Error   string `json:"error"`
	}
	msg := ""
	if json.Unmarshal(data, &doc) == nil {
		switch m := doc.Message.(type) {
		case string:
			msg = m
		case nil:
			msg = doc.Error
		default:
			b, _ := json.Marshal(m)
			msg = string(b)
		}
	}
	return oneLine(msg)
}

// oneLine is a message of the code host's, on one line and short.
func oneLine(msg string) string {
	msg = termtext.SanitizeLine(msg)
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "…"
	}
	return msg
}

// debugMu keeps each traced line whole.
var debugMu sync.Mutex

func (a *restAPI) trace(format string, args ...any) {
	if a.debug == nil {
		return
	}
	debugMu.Lock()
	defer debugMu.Unlock()
	_, _ = io.WriteString(a.debug, a.redact(termtext.Sanitize(fmt.Sprintf(format, args...))))
}

// redact removes the token from text that may show it (an error that
// quotes a URL or an answer that echoes a header).
func (a *restAPI) redact(s string) string {
	if a.token == "" {
		return s
	}
	return strings.ReplaceAll(s, a.token, "[REDACTED]")
}

func (a *restAPI) redactErr(err error) error { return errors.New(a.redact(err.Error())) }
