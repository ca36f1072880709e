package logs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/termtext"
)

const masked = "****"

// maskHeaders hides the values of credential headers the agent sent, in
// the decoded answer (tables) and in the service's document (-o json, yaml,
// --jq). They are the tested application's secrets, and logs end up in CI
// output and artifacts; the header names stay, so a reader sees a key was
// sent.
func maskHeaders(resp *api.LogsResponse) error {
	for i := range resp.APICalls {
		for name, value := range resp.APICalls[i].RequestHeaders {
			if secretHeader(name) && value != "" {
				resp.APICalls[i].RequestHeaders[name] = maskValue(name, value)
			}
		}
	}
	// apiCalls[i].requestHeaders[name]
	return resp.EditStrings(func(path []string, value string) (string, bool) {
		if len(path) != 4 || path[0] != "apiCalls" || path[2] != "requestHeaders" || !secretHeader(path[3]) || value == "" {
			return value, false
		}
		return maskValue(path[3], value), true
	})
}

func secretHeader(name string) bool {
	n := strings.ToLower(name)
	return slices.Contains([]string{"authorization", "proxy-authorization", "cookie", "set-cookie"}, n) ||
		slices.ContainsFunc([]string{"token", "key", "secret", "password", "passwd", "session", "credential", "signature"},
			func(word string) bool { return strings.Contains(n, word) })
}

// maskValue keeps the scheme of an authorization value ("Bearer ****"),
// which tells a reader what kind of credential was used without showing it.
func maskValue(name, value string) string {
	if strings.HasSuffix(strings.ToLower(name), "authorization") {
		if scheme, _, ok := strings.Cut(strings.TrimSpace(value), " "); ok && scheme != "" {
			return termtext.SanitizeLine(scheme) + " " + masked
		}
	}
	return masked
}

// printFull writes each API call as a block: the request line, verdict,
// the agent's reading of the result, headers and bodies. Everything the
// service sent is sanitised; multi-line text is indented under its label.
func printFull(ios *iostreams.IOStreams, calls []api.APICallEntry) error {
	st := ios.Styles()
	w := bufio.NewWriter(ios.Out)
	for i, c := range calls {
		if i > 0 {
			w.WriteByte('\n')
		}
		w.WriteString(st.Bold(termtext.SanitizeLine(c.Method+" "+c.URL)) + "\n")
		verdict := st.Success("success")
		if !c.Success {
			verdict = st.Failure("failure")
		}
		code := statusText(c.StatusCode)
		status := "  status " + statusColor(st, c.StatusCode, c.Success)(code) + " · " + verdict + " · " + duration(c.DurationMs)
		if at := evidence.Since(c.RelativeTimestampMs); at != "" {
			status += " · at " + at
		}
		w.WriteString(status + "\n")
		if c.TextResult != nil && *c.TextResult != "" {
			block(w, st, "result", *c.TextResult, false)
		}
		if c.ErrorMessage != "" {
			block(w, st, "error", c.ErrorMessage, false)
		}
		if len(c.RequestHeaders) > 0 {
			w.WriteString("  " + st.Muted("request headers:") + "\n")
			for _, n := range slices.Sorted(maps.Keys(c.RequestHeaders)) {
				w.WriteString("    " + termtext.SanitizeLine(n) + ": " + termtext.SanitizeLine(c.RequestHeaders[n]) + "\n")
			}
		}
		if c.RequestBody != "" {
			block(w, st, "request body", c.RequestBody, c.RequestBodyTruncated)
		}
		if c.ResponseBody != "" {
			block(w, st, "response body", c.ResponseBody, c.ResponseBodyTruncated)
		}
	}
	return w.Flush()
}

// block writes a labelled, indented piece of service text. A body that is
// whole JSON is indented for reading; a truncated one is shown as it came.
func block(w *bufio.Writer, st *iostreams.Styles, label, text string, truncated bool) {
	if truncated {
		label += " (truncated by the service)"
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, []byte(text), "", "  ") == nil {
		text = pretty.String()
	}
	w.WriteString("  " + st.Muted(label+":") + "\n")
	for _, line := range strings.Split(strings.TrimRight(termtext.Sanitize(text), "\n"), "\n") {
		w.WriteString("    " + strings.ReplaceAll(line, "\t", "  ") + "\n")
	}
}
