package sandbox

import (
	"fmt"
	"net/http"
	"regexp"

	"github.com/testctl/testctl/pkg/api"
)

// logsResponse is api.LogsResponse whose list of the requested kind is
// present even when empty, so "nothing matched" reads as [] rather than as
// a missing field.
type logsResponse struct {
	api.LogsResponse
	Network  *[]api.NetworkEntry `json:"network,omitempty"`
	Console  *[]api.ConsoleEntry `json:"console,omitempty"`
	APICalls *[]api.APICallEntry `json:"apiCalls,omitempty"`
}

// logFilter is the parsed query object of the logs operation.
type logFilter struct {
	kind, status          string
	url                   *regexp.Regexp
	warnings, includeInfo bool
}

func parseLogFilter(q params) (f logFilter, err error) {
	if q["kind"] == "" {
		return f, fmt.Errorf("kind is required: network, console or apiCalls")
	}
	f.kind = q.oneOf(&err, "kind", "", api.LogKindNetwork, api.LogKindConsole, api.LogKindAPICalls)
	f.status = q.oneOf(&err, "statusFilter", "all", "all", "errors", "success")
	f.warnings, _ = q.boolean(&err, "includeWarnings")
	f.includeInfo, _ = q.boolean(&err, "includeInfo")
	if p := q["urlPattern"]; p != "" && err == nil {
		if f.url, err = regexp.Compile("(?i)" + p); err != nil {
			return f, fmt.Errorf("urlPattern is not a valid regular expression: %v", err)
		}
	}
	return f, err
}

func (f logFilter) statusOK(code int32, failed bool) bool {
	switch f.status {
	case "errors":
		return failed || code >= 400
	case "success":
		return !failed && code >= 200 && code < 400
	}
	return true
}

func (f logFilter) urlOK(u string) bool { return f.url == nil || f.url.MatchString(u) }

// handleLogs is GET /v1/run-test-case/{shortId}/logs. urlPattern and
// statusFilter apply to network and apiCalls, includeWarnings and
// includeInfo to console; each is ignored for the other kinds.
func (s *Server) handleLogs(c *call) {
	f, err := parseLogFilter(c.q)
	if refuse(c.w, err) {
		return
	}
	short := c.r.PathValue("shortId")
	r, i := s.findRunTestCase(short)
	if r == nil {
		c.fail(http.StatusNotFound, "run test case %s not found in project %s", short, ProjectShortID)
		return
	}
	cr := &r.cases[i]
	e := r.elapsed(c.now)
	full := s.captureFor(short, cr)
	progress := 0.0 // it did not run, or not yet
	if cr.end > cr.start {
		progress = min(max((e-cr.start)/(cr.end-cr.start), 0), 1)
	}

	resp := logsResponse{LogsResponse: api.LogsResponse{RunTestCaseShortID: short, Kind: f.kind}}
	var captured, matched int
	switch f.kind {
	case api.LogKindNetwork:
		captured, matched = keepCapped(&resp.Network, full.network, progress, func(n api.NetworkEntry) bool {
			return f.urlOK(n.URL) && f.statusOK(n.StatusCode, n.StatusCode == 0 || n.IsError)
		})
	case api.LogKindAPICalls:
		captured, matched = keepCapped(&resp.APICalls, full.apiCalls, progress, func(a api.APICallEntry) bool {
			code := int32(0)
			if a.StatusCode != nil {
				code = *a.StatusCode
			}
			return f.urlOK(a.URL) && f.statusOK(code, a.StatusCode == nil || !a.Success)
		})
	case api.LogKindConsole:
		captured, matched = keepCapped(&resp.Console, full.console, progress, func(m api.ConsoleEntry) bool {
			return (m.Level != "warning" || f.warnings) && (m.Level != "info" || f.includeInfo)
		})
	}
	resp.TotalMatched = int32(matched)
	resp.Returned = int32(min(matched, LogsPerCallCap))
	resp.HasMore = matched > LogsPerCallCap
	resp.Message = logsMessage(f.kind, cr, e, captured, matched)
	writeJSON(c.w, http.StatusOK, resp)
}

func logsMessage(kind string, c *caseRun, e float64, captured, matched int) string {
	switch {
	case c.start >= c.end:
		return "Nothing was captured: this test case did not run."
	case e < c.start:
		return "Nothing was captured yet: this test case has not started."
	case captured == 0 && kind == api.LogKindAPICalls:
		return "Nothing was captured: API calls are recorded only for API tests."
	case captured == 0 && c.tc.Profile == profileAPI:
		return "Nothing was captured: this is an API test, which has no browser; read kind apiCalls."
	case captured == 0:
		return "Nothing was captured for this test case."
	case matched > LogsPerCallCap:
		return fmt.Sprintf("Showing the first %d of %d matching entries; narrow the result with urlPattern or statusFilter.", LogsPerCallCap, matched)
	case matched == 0 && kind == api.LogKindConsole:
		return fmt.Sprintf("None of the %d captured console entries match; warnings and info-level entries are hidden unless includeWarnings or includeInfo is true.", captured)
	case matched == 0:
		return fmt.Sprintf("None of the %d captured entries match; use a broader urlPattern or statusFilter=all.", captured)
	case e < c.end:
		return "The test case is still running; more entries may be captured."
	}
	return ""
}

// keepCapped sets *dst to the entries of the captured share (progress) of
// all that keep accepts, at most LogsPerCallCap of them (never nil, so an
// empty list is []), and says how many were captured and how many matched
// before the cap.
func keepCapped[T any](dst **[]T, all []T, progress float64, keep func(T) bool) (captured, matched int) {
	all = all[:int(float64(len(all))*progress)]
	list := []T{}
	for _, e := range all {
		if keep(e) {
			list = append(list, e)
		}
	}
	*dst = new(list[:min(len(list), LogsPerCallCap)])
	return len(all), len(list)
}
