package sandbox

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

// runURL is where the (imaginary) web app shows a run; the host is
// reserved (.invalid) so nothing ever resolves it.
func runURL(shortID string) string { return appURLBase + "/runs/" + shortID }

func (s *Server) assignRunIDs(r *run) {
	r.id = "run_" + hexFor(24, s.opts.Seed, "run", r.shortID)
	r.legacyID = uuidFor(s.opts.Seed, "run", r.shortID)
}

// lookupTestCase finds a fixture or created test case by UUID.
func (s *Server) lookupTestCase(id string) *testCase {
	if tc := fixtureByID(id); tc != nil {
		return tc
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.createdByID[id]
}

// findRun finds a run started here or a past one; nil if there is none.
func (s *Server) findRun(shortID string) *run {
	prefix, i, ok := s.decodeRunID(shortID)
	switch {
	case !ok:
		return nil
	case prefix == 'h':
		if i < len(s.history) {
			return s.historyRun(i)
		}
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.runs[shortID]
}

// startRun records a new run created at sandbox time now.
func (s *Server) startRun(now float64, tmpl run) *run {
	r := &tmpl
	r.created = now
	if r.plan != nil {
		r.cases = planCases(r.plan)
		r.status, r.result = r.plan.Status, r.plan.Result
	} else {
		r.cases = scheduleTestCases(r.testCaseIDs, s.lookupTestCase)
		r.status, r.result = verdict(r.cases)
	}
	if len(r.apps) == 0 {
		r.apps = []string{appWebID}
	}
	s.mu.Lock()
	r.shortID = s.encodeRunID('r', len(s.runOrder))
	s.assignRunIDs(r)
	s.runs[r.shortID] = r
	s.runOrder = append(s.runOrder, r)
	s.mu.Unlock()
	s.countWith(func(st *Stats) { st.RunsStarted++ })
	return r
}

func startResponse(r *run) api.StartRunResponse {
	resp := api.StartRunResponse{Success: true, Run: api.StartedRun{
		ID: r.id, ShortID: r.shortID, URL: runURL(r.shortID), TestCount: len(r.cases)}}
	if r.plan != nil {
		resp.Run.TestPlan = &api.TestPlan{Name: r.plan.Name, ShortID: r.plan.ShortID}
	}
	return resp
}

// handleStartRun is POST /v1/run. The usage limit (402) is checked after
// validation, as a valid request is what the organization is refused.
func (s *Server) handleStartRun(c *call) {
	var req api.StartRunRequest
	if !decodeBody(c.w, c.r, &req, false) || !c.project(req.ProjectShortID) {
		return
	}
	p, ids, err := s.validateStartRun(&req)
	if err != nil {
		c.failErr(err)
		return
	}
	if c.key == keyLimit {
		c.fail(http.StatusPaymentRequired, msgLimit)
		return
	}
	trigger := req.Trigger
	if trigger == "" {
		trigger = api.TriggerAPI
	}
	var apps []string
	for _, a := range req.Applications {
		apps = append(apps, a.ApplicationShortID)
	}
	r := s.startRun(c.now, run{plan: p, testCaseIDs: ids, trigger: trigger, actor: req.Actor,
		branch: req.Branch, commit: req.CommitHash, commitMessage: req.CommitMessage, repo: req.Repository, apps: apps})
	writeJSON(c.w, http.StatusOK, startResponse(r))
}

// rerunRequest is the published body of POST /v1/run/{shortId}.
type rerunRequest struct {
	FailedOnly         bool     `json:"failedOnly"`
	ProjectTestCaseIDs []string `json:"projectTestCaseIds"`
	ProjectShortID     string   `json:"projectShortId"`
}

// handleRerun is POST /v1/run/{shortId}: a new run of the same plan (or the
// same test case ids), of the original's failed test cases (failedOnly), or
// of the given projectTestCaseIds. The body is optional.
func (s *Server) handleRerun(c *call) {
	var req rerunRequest
	if !decodeBody(c.w, c.r, &req, true) || !c.project(req.ProjectShortID) {
		return
	}
	orig := s.findRun(c.r.PathValue("shortId"))
	if orig == nil {
		c.fail(http.StatusNotFound, "run %s not found", c.r.PathValue("shortId"))
		return
	}
	next := run{plan: orig.plan, testCaseIDs: orig.testCaseIDs, trigger: api.TriggerAPI, actor: orig.actor,
		branch: orig.branch, commit: orig.commit, commitMessage: orig.commitMessage, repo: orig.repo, apps: orig.apps}
	switch {
	case req.FailedOnly && req.ProjectTestCaseIDs != nil:
		c.fail(http.StatusBadRequest, "pass failedOnly or projectTestCaseIds, not both")
		return
	case req.ProjectTestCaseIDs != nil:
		ids, err := s.validateTestCaseIDs("projectTestCaseIds", req.ProjectTestCaseIDs)
		if err != nil {
			c.failErr(err)
			return
		}
		next.plan, next.testCaseIDs = nil, ids
	case req.FailedOnly:
		e := orig.elapsed(c.now)
		if st, _ := orig.stateAt(e); !api.IsTerminalStatus(st) {
			c.fail(http.StatusBadRequest, "run %s is still %s; rerun its failed test cases once it has finished", orig.shortID, st)
			return
		}
		var ids []string
		for _, tc := range orig.cases {
			if tc.result == api.ResultFailed || tc.status == api.StatusError {
				ids = append(ids, tc.tc.ID)
			}
		}
		if len(ids) == 0 {
			c.fail(http.StatusBadRequest, "run %s has no failed test cases to rerun", orig.shortID)
			return
		}
		next.plan, next.testCaseIDs = nil, ids
	}
	if c.key == keyLimit {
		c.fail(http.StatusPaymentRequired, msgLimit)
		return
	}
	writeJSON(c.w, http.StatusOK, startResponse(s.startRun(c.now, next)))
}

// runTestCaseShortID names the i-th test case of a run: the run's short id
// and a 1-based position, which the logs operation decodes again.
func runTestCaseShortID(runShortID string, i int) string {
	return runShortID + "-" + strconv.Itoa(i+1)
}

// findRunTestCase resolves a run test case short id.
func (s *Server) findRunTestCase(shortID string) (*run, int) {
	runID, pos, ok := strings.Cut(shortID, "-")
	if !ok {
		return nil, 0
	}
	r := s.findRun(runID)
	if r == nil {
		return nil, 0
	}
	n, err := strconv.Atoi(pos)
	if err != nil || n < 1 || n > len(r.cases) || strconv.Itoa(n) != pos {
		return nil, 0
	}
	return r, n - 1
}
