package sandbox

import (
	"net/http"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

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
	switch keyFor(token) {
	case keyNone:
		writeLegacyError(w, http.StatusNotFound, "Not Found")
		return
	case keySuspended:
		writeLegacyError(w, http.StatusForbidden, msgSuspended)
		return
	}
	run := s.findRun(r.PathValue("shortId"))
	if !strings.EqualFold(r.PathValue("projectUuid"), ProjectUUID) || run == nil {
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
