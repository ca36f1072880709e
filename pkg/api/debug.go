package api

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/testctl/testctl/pkg/termtext"
)

// maxLoggedBody keeps --debug readable when a page of 100 runs comes back.
const maxLoggedBody = 4096

// debugMu keeps the blocks of requests in flight at once (the starts of
// several plans, the pages --all fetches ahead) whole: each block is one
// write, made under it.
var debugMu sync.Mutex

func (c *Client) debugf(format string, args ...any) {
	c.debugWrite(fmt.Sprintf(format, args...))
}

func (c *Client) debugWrite(block string) {
	if c.Debug == nil {
		return
	}
	debugMu.Lock()
	defer debugMu.Unlock()
	_, _ = io.WriteString(c.Debug, block)
}

func (c *Client) logRequest(req *http.Request, body []byte, attempt int) {
	if c.Debug == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s (attempt %d)\n", req.Method, c.redactText(req.URL.String()), attempt)
	for _, name := range slices.Sorted(maps.Keys(req.Header)) {
		value := strings.Join(req.Header[name], ", ")
		if name == "Authorization" {
			value = "Bearer [REDACTED]"
		}
		fmt.Fprintf(&b, "> %s: %s\n", name, c.redactText(value))
	}
	if len(body) > 0 {
		fmt.Fprintf(&b, "> %s\n", concealed(req.Context()).Replace(c.redactText(clip(body))))
	}
	c.debugWrite(b.String())
}

func (c *Client) logResponse(resp *http.Response, body []byte, took time.Duration) {
	if c.Debug == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "< HTTP %d in %s\n", resp.StatusCode, took.Round(time.Millisecond))
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		fmt.Fprintf(&b, "< Retry-After: %s\n", ra)
	}
	if len(body) > 0 {
		fmt.Fprintf(&b, "< %s\n", c.redactText(clip(body)))
	}
	c.debugWrite(b.String())
}

// clip shortens a body and strips terminal controls: the debug log goes to a
// terminal too, and the body is the service's text. encoding/json leaves C1
// controls and bidi overrides raw in a body, so they are removed here too.
func clip(body []byte) string {
	if len(body) > maxLoggedBody {
		return termtext.Sanitize(string(body[:maxLoggedBody])) + fmt.Sprintf("… (%d bytes)", len(body))
	}
	return termtext.Sanitize(string(body))
}
