package sandbox

import (
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

// Operations the service publishes without shapes; the sandbox gives them
// small, plausible ones so `testctl api` has something to try.

// handleApplications is GET /v1/applications.
func (s *Server) handleApplications(c *call) {
	writeJSON(c.w, http.StatusOK, map[string]any{"applications": sandboxApplications})
}

// handleEnvironments is GET /v1/applications/{app}/environments.
func (s *Server) handleEnvironments(c *call) {
	app := c.r.PathValue("app")
	if !hasPrefixID(app, "app_") {
		c.fail(http.StatusBadRequest, "%q is not an application short id (app_<id>)", app)
		return
	}
	envs, ok := sandboxEnvironments[app]
	if !ok {
		c.fail(http.StatusNotFound, "application %s not found in project %s", app, ProjectShortID)
		return
	}
	writeJSON(c.w, http.StatusOK, map[string]any{"environments": envs})
}

// OutboundIPs are the documentation-range addresses the sandbox claims its
// test agents connect from.
var OutboundIPs = []string{"192.0.2.10", "198.51.100.24", "203.0.113.77"}

// handleOutboundIPs is GET /v1/outbound-ips, public like the service's.
func (s *Server) handleOutboundIPs(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"ips": OutboundIPs})
}

// handleBadge is GET /v1/badge.svg?token=…&testPlanShortId=…, public (no
// Authorization header): the token in the query is one of the sandbox keys.
// It shows the latest run of the plan.
func (s *Server) handleBadge(w http.ResponseWriter, r *http.Request) {
	q, err := parseQuery(r.URL.RawQuery)
	if refuse(w, err) {
		return
	}
	token, planID := q["token"], q["testPlanShortId"]
	switch {
	case token == "" || planID == "":
		writeError(w, http.StatusBadRequest, "token and testPlanShortId are required")
		return
	case refuse(w, keyError(token, "invalid badge token")):
		return
	}
	p, err := s.lookupPlan(planID)
	if refuse(w, err) {
		return
	}
	label, colour := s.badgeState(p.ShortID)
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-cache")
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="20" role="img" aria-label="testctl: %[1]s">`+
		`<title>%[3]s: %[1]s</title><rect width="60" height="20" fill="#555"/><rect x="60" width="90" height="20" fill="%[2]s"/>`+
		`<g fill="#fff" font-family="Verdana,sans-serif" font-size="11"><text x="6" y="14">testctl</text>`+
		`<text x="66" y="14">%[1]s</text></g></svg>`, label, colour, html.EscapeString(p.Name))
}

// badgeState describes the newest run of a plan: one started here, else
// the newest past one.
func (s *Server) badgeState(planID string) (label, colour string) {
	now := s.now()
	latest := s.latestRun(func(p *plan, _ []caseRun) bool { return p != nil && p.ShortID == planID })
	if latest == nil {
		return "no runs", "#9f9f9f"
	}
	status, result := latest.stateAt(latest.elapsed(now))
	switch {
	case result != nil && *result == api.ResultPassed:
		return "passing", "#4c1"
	case result != nil && *result == api.ResultFailed:
		return "failing", "#e05d44"
	case result != nil:
		return "skipped", "#dfb317"
	case status == api.StatusError:
		return "error", "#e05d44"
	case status == api.StatusCancelled:
		return "cancelled", "#9f9f9f"
	}
	return "running", "#007ec6"
}

// legacyRunDetail is the older run detail of the deprecated address. Like
// the real one it names the plan in snake_case (testPlan.short_id), which
// tolerant clients must ignore.
type legacyRunDetail struct {
	api.LegacyRunDetail
	TestPlan *legacyPlan `json:"testPlan,omitempty"`
}

type legacyPlan struct {
	Name    string `json:"name"`
	ShortID string `json:"short_id"`
}

// handleLegacyRun is GET {LegacyPrefix}/projects/{projectUuid}/runs/{shortId}.
// As the old service did, it answers {"statusText": ...} and hides whether
// a project or run exists from a caller without a valid key: a missing or
// unknown key is 404. A suspended organization is still 403.
func (s *Server) handleLegacyRun(w http.ResponseWriter, r *http.Request) {
	token, _ := bearer(r)
	if token == SuspendedKey {
		writeLegacyError(w, http.StatusForbidden, msgSuspended)
		return
	}
	run := s.findRun(r.PathValue("shortId"))
	if !slices.Contains(sandboxKeys, token) || !strings.EqualFold(r.PathValue("projectUuid"), ProjectUUID) || run == nil {
		writeLegacyError(w, http.StatusNotFound, "Not Found")
		return
	}
	e := run.elapsed(s.now())
	out := legacyRunDetail{LegacyRunDetail: api.LegacyRunDetail{ID: run.legacyID, ShortID: run.shortID,
		FailedTestCases: []api.RunTestCase{}}}
	out.Status, out.Result = run.stateAt(e)
	if out.Result != nil && *out.Result == api.ResultFailed {
		for i := range run.cases {
			if rtc := s.runTestCase(run, i, e); rtc.Result == api.ResultFailed {
				out.FailedTestCases = append(out.FailedTestCases, rtc)
			}
		}
	}
	if run.plan != nil {
		out.TestPlan = &legacyPlan{Name: run.plan.Name, ShortID: run.plan.ShortID}
	}
	writeJSON(w, http.StatusOK, out)
}
