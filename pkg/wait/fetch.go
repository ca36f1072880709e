package wait

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
)

// GetJSON reads path into out through Raw, which keeps the response
// headers: the Retry-After of a failed answer lives there. It is what a
// PollFunc calls; the client must have its retries off, as the Loop paces
// its own.
func GetJSON(ctx context.Context, c *api.Client, clk clock.Clock, path string, q url.Values, out any) Outcome {
	if c.ProjectShortID != "" {
		q.Set("projectShortId", c.ProjectShortID)
	}
	resp, err := c.Raw(ctx, http.MethodGet, path, q, nil)
	if err != nil {
		o := Outcome{Err: err}
		if resp != nil {
			o.RetryAfter = api.ParseRetryAfter(resp.Header.Get("Retry-After"), clk.Now())
		}
		return o
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return Outcome{Err: unreadable(path, q, resp.StatusCode, err)}
	}
	api.KeepRaw(out, resp.Body) // -o json prints the service's document
	return Outcome{}
}

// unreadable is an answer that says nothing about what was asked (HTML from
// a proxy, JSON of another shape): as transient as a 502.
func unreadable(path string, q url.Values, status int, err error) error {
	shown := path
	if len(q) > 0 {
		shown += "?" + q.Encode()
	}
	return &api.DecodeError{Method: http.MethodGet, Path: shown, Status: status, Err: err}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
