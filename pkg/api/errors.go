package api

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/termtext"
)

// HTTPError is a non-2xx answer of the service.
type HTTPError struct {
	StatusCode int
	Method     string
	Path       string // path and query as sent, never the host's credentials
	Message    string // the service's own message, sanitised by whoever prints it
	Hint       string // what the user can do about it
	// RetryAfter is the answer's Retry-After (zero when absent), for a
	// caller that paces its own retries: the wait engine's polls.
	RetryAfter time.Duration
	// Attempts and Elapsed say how hard the client tried before giving up.
	Attempts int
	Elapsed  time.Duration
}

func (e *HTTPError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %sHTTP %d", e.Method, e.Path, tried(e.Attempts, e.Elapsed), e.StatusCode)
	if text := http.StatusText(e.StatusCode); text != "" {
		fmt.Fprintf(&b, " %s", text)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	if e.Hint != "" {
		fmt.Fprintf(&b, "\n%s", e.Hint)
	}
	return b.String()
}

// ExitCode maps the status to the contract's exit codes.
func (e *HTTPError) ExitCode() int {
	switch {
	case e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity:
		return exitcode.Usage
	case e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden:
		return exitcode.Auth
	case e.StatusCode == http.StatusNotFound:
		return exitcode.NotFound
	default:
		return exitcode.Service
	}
}

// TransportError is a failure to get any answer: connection refused, reset,
// timeout, name resolution.
type TransportError struct {
	Method string
	Path   string
	Err    error
	// Attempts and Elapsed say how hard the client tried before giving up.
	Attempts int
	Elapsed  time.Duration
	shown    string // Err as the user reads it: its cause named plainly, the key redacted
}

func (e *TransportError) Error() string {
	shown := e.shown
	if shown == "" {
		shown = cause(e.Err)
	}
	return fmt.Sprintf("%s %s: %s%s", e.Method, e.Path, tried(e.Attempts, e.Elapsed), shown)
}
func (e *TransportError) Unwrap() error { return e.Err }

// ExitCode is always the contract's "service or network failed".
func (e *TransportError) ExitCode() int { return exitcode.Service }

// DecodeError is an answer that could not be read as the expected JSON.
type DecodeError struct {
	Method  string
	Path    string
	Status  int
	Excerpt string // the start of the body, for the user to recognise an HTML page or a proxy error
	Err     error
}

func (e *DecodeError) Error() string {
	msg := fmt.Sprintf("%s %s: unreadable response (HTTP %d): %v", e.Method, e.Path, e.Status, e.Err)
	if e.Excerpt != "" {
		msg += fmt.Sprintf("\nresponse began: %q", e.Excerpt)
	}
	return msg
}
func (e *DecodeError) Unwrap() error { return e.Err }

// ExitCode is the contract's "unreadable response".
func (e *DecodeError) ExitCode() int { return exitcode.Service }

// InsecureTransportError refuses to send a key over plain HTTP to a remote host.
type InsecureTransportError struct{ Host string }

func (e *InsecureTransportError) Error() string {
	return fmt.Sprintf("refusing to send the API key over plain http:// to %s: anyone on the network could read it.\n"+
		"Use an https:// base URL, or pass --allow-insecure-http if this network is trusted.", e.Host)
}

// ExitCode: it is a configuration problem, nothing was sent.
func (e *InsecureTransportError) ExitCode() int { return exitcode.Usage }

// IsNotFound reports whether err is the service's 404.
func IsNotFound(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.StatusCode == http.StatusNotFound
}

// excerpt returns a short, printable start of a body for error messages.
func excerpt(body []byte) string {
	const max = 120
	if len(body) > max {
		body = body[:max]
	}
	// A cut through a character leaves invalid bytes: dropped with the rest.
	return strings.Join(strings.Fields(strings.ToValidUTF8(string(body), "")), " ")
}

// runNotFoundHint completes a run's 404 by what was given in place of a
// run's short id: a plan's id or a run test case's is the usual mistake,
// and each gets the command it was likely meant for; an id shaped like a
// run's gets where to look for it.
func runNotFoundHint(path string, steps nextstep.Renderer) string {
	id, _, _ := strings.Cut(strings.TrimPrefix(path, "/v1/run/"), "/")
	id, _, _ = strings.Cut(id, "?")
	if unescaped, err := url.PathUnescape(id); err == nil {
		id = unescaped
	}
	id = termtext.SanitizeLine(id)
	if strings.HasPrefix(id, "pln-") || strings.HasPrefix(id, "pln_") {
		return fmt.Sprintf("%s is a test plan's id, not a run's: %s lists its runs, %s starts one.", id,
			steps.Inline(nextstep.Command("run", "list", "--plan", id)), steps.Inline(nextstep.Command("run", "start", "--plan", id)))
	}
	if run, n, ok := strings.Cut(id, "-"); ok && run != "" && n != "" && strings.Trim(n, "0123456789") == "" {
		return fmt.Sprintf("%s is a test case of run %s: %s shows the run, %s the test case's requests.", id, run,
			steps.Inline(nextstep.Command("run", "get", run)), steps.Inline(nextstep.Command("logs", id, "--kind", "network")))
	}
	return fmt.Sprintf("No run %s in this project: check the project (--project) and the base URL; %s shows this project's recent runs.", id,
		steps.Inline(nextstep.Command("run", "list")))
}

// orgKeyHint completes the service's "projectShortId is required", which
// names its own wire field, with the ways testctl takes a project.
const orgKeyHint = "The API key is organization-scoped: name the project with --project (-p) or TESTCTL_PROJECT, " +
	"or save it with `testctl config set project proj_…`."

// hintFor says what the user can do about an answer: by its status, and for
// the organization key's 400, by the service's message; steps words the
// commands it names.
func hintFor(status int, path, message string, steps nextstep.Renderer) string {
	if status == http.StatusBadRequest && strings.Contains(message, "projectShortId") && strings.Contains(message, "required") {
		return orgKeyHint
	}
	if status == http.StatusNotFound && strings.HasPrefix(path, "/v1/run/") {
		return runNotFoundHint(path, steps)
	}
	switch status {
	case http.StatusUnauthorized:
		return "The API key is missing or invalid. Store one with " + steps.Inline(nextstep.Step{Args: []string{"auth", "login"}, ForUser: true}) +
			", or set TESTCTL_API_KEY or --api-key."
	case http.StatusForbidden:
		return "The key is not allowed to do this (or the organization is suspended). Check the key's scope and the project (--project)."
	case http.StatusPaymentRequired:
		return "The organization has reached its usage limit."
	case http.StatusTooManyRequests:
		return "The service is rate limiting this key; try again shortly."
	}
	if status >= 500 {
		return "The service failed; try again shortly."
	}
	return ""
}

// IsTransient reports whether a failed call is worth repeating later by a
// caller that polls: the network or the service had a bad moment (timeouts,
// throttling, 5xx, a garbled answer), rather than answering about the request
// itself (bad input, a key, something unknown). A certificate that is not
// trusted, a host name that does not resolve, a refused redirect or an
// oversized answer are permanent: repeating them only hides the cause.
func IsTransient(err error) bool {
	if he, ok := errors.AsType[*HTTPError](err); ok {
		return he.StatusCode == http.StatusRequestTimeout || he.StatusCode == http.StatusTooManyRequests || he.StatusCode >= 500
	}
	if te, ok := errors.AsType[*TransportError](err); ok {
		return !permanent(te.Err)
	}
	_, ok := errors.AsType[*DecodeError](err)
	return ok
}
