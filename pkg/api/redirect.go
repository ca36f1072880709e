package api

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/testctl/testctl/pkg/exitcode"
)

// maxRedirects matches net/http's own limit.
const maxRedirects = 10

// RedirectError is a redirect the client refused to follow. The key goes in
// every request's Authorization header, so a GET follows a redirect only to
// the origin it was sent to (same scheme, host and port: curl's
// CVE-2022-27776 was the key going to another port of the same host). Any
// other request is never followed: net/http would turn a POST into a GET
// on a 301 or 302, and repeat it elsewhere on a 307 or 308.
type RedirectError struct {
	Status int
	Target string // the Location, with the key redacted
	Reason string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("refused to follow a redirect (HTTP %d) to %s: %s", e.Status, e.Target, e.Reason)
}

// ExitCode is the contract's "the service or the network failed".
func (e *RedirectError) ExitCode() int { return exitcode.Service }

// checkRedirect is the http.Client.CheckRedirect of every request.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	refuse := func(reason string) error {
		status := 0
		if req.Response != nil {
			status = req.Response.StatusCode
		}
		return &RedirectError{Status: status, Target: c.redactText(req.URL.Redacted()), Reason: reason}
	}
	switch {
	case first.Method != http.MethodGet && first.Method != http.MethodHead:
		return refuse(fmt.Sprintf("a %s is never followed through a redirect; check the base URL", first.Method))
	case !SameOrigin(first, req):
		return refuse(fmt.Sprintf("it leaves %s, and the API key must not go with it; check the base URL",
			first.URL.Scheme+"://"+first.URL.Host))
	case len(via) >= maxRedirects:
		return refuse(fmt.Sprintf("stopped after %d redirects", maxRedirects))
	}
	return nil
}

// SameOrigin says whether two requests go to the same scheme, host (in any
// case) and port (the scheme's default when none is given): where a
// credential may follow a redirect.
func SameOrigin(a, b *http.Request) bool {
	return a.URL.Scheme == b.URL.Scheme && strings.EqualFold(a.URL.Hostname(), b.URL.Hostname()) &&
		port(a) == port(b)
}

func port(r *http.Request) string {
	if p := r.URL.Port(); p != "" {
		return p
	}
	if r.URL.Scheme == "https" {
		return "443"
	}
	return "80"
}
