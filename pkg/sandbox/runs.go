package sandbox

import (
	"cmp"
	"net/http"
	"slices"
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

// findRun finds a run started here or a past one, by the index its short
// id decodes to; nil if there is none.
func (s *Server) findRun(shortID string) *run {
	prefix, i, ok := s.decodeRunID(shortID)
	if ok && prefix == 'h' && i < len(s.history) {
		return s.historyRun(i)
	}
	if ok && prefix == 'b' && i < s.baselineRuns() {
		return s.baselineRun(i)
	}
	s.mu.RLock()
	live := s.runOrder // append-only: the runs it holds never change
	s.mu.RUnlock()
	if !ok || prefix != 'r' || i >= len(live) || !s.visible(live[i], s.now()) {
		return nil
	}
	return live[i]
}

// latestRun is the newest run whose plan and test cases match accepts: one
// started here, else among the newest 1000 past runs.
func (s *Server) latestRun(match func(*plan, []caseRun) bool) *run {
	s.mu.RLock()
	live := s.runOrder // append-only: the runs it holds never change
	s.mu.RUnlock()
	for _, r := range slices.Backward(live) {
		if match(r.plan, r.cases) {
			return r
		}
	}
	// Past runs share the few historyKinds: match is asked once per kind.
	var kindMatches []bool
	for _, k := range historyKinds() {
		kindMatches = append(kindMatches, match(k.plan, k.cases))
	}
	for i, a := range s.history[:min(len(s.history), 1000)] {
		if kindMatches[a.kind] {
			return s.historyRun(i)
		}
	}
	return nil
}

// visible reports whether a run can be seen at sandbox time now, under
// Options.VisibilityDelay.
func (s *Server) visible(r *run, now float64) bool {
	return r.history || (now-r.created)/s.opts.Speed >= s.opts.VisibilityDelay.Seconds()
}

// startRun records a new run created at sandbox time now.
func (s *Server) startRun(now float64, tmpl run) *run {
	r := &tmpl
	r.created = now
	r.endsAfter = s.opts.RunEndDelay.Seconds()
	r.layOut(s.lookupTestCase)
	if len(r.apps) == 0 {
		r.apps = []string{appWebID}
	}
	s.mu.Lock()
	r.shortID = s.encodeRunID('r', len(s.runOrder))
	s.assignRunIDs(r)
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
	if refuse(c.w, decodeBody(c.w, c.r, &req, false)) || refuse(c.w, c.project(req.ProjectShortID, true)) {
		return
	}
	p, ids, err := s.validateStartRun(&req)
	if c.refuseStart(err) {
		return
	}
	var apps []string
	for _, a := range req.Applications {
		apps = append(apps, a.ApplicationShortID)
	}
	r := s.startRun(c.now, run{plan: p, testCaseIDs: ids, trigger: cmp.Or(req.Trigger, api.TriggerAPI),
		branch: req.Branch, commit: req.CommitHash, apps: apps})
	writeJSON(c.w, http.StatusOK, startResponse(r))
}

// handleRerun is POST /v1/run/{shortId}: a new run of a finished run,
// with the original's plan, trigger, branch, commit and applications, of
// all its test cases, of its failed ones (failedOnly: FAILED or ERROR), or
// of the given projectTestCaseIds, which must be among its test cases. The
// body is optional; the original run is left unchanged.
func (s *Server) handleRerun(c *call) {
	var req api.RerunRequest
	if refuse(c.w, decodeBody(c.w, c.r, &req, true)) || refuse(c.w, c.project(req.ProjectShortID, true)) {
		return
	}
	if req.FailedOnly && req.ProjectTestCaseIDs != nil {
		c.fail(http.StatusBadRequest, "pass failedOnly or projectTestCaseIds, not both")
		return
	}
	orig := s.findRun(c.r.PathValue("shortId"))
	if orig == nil {
		c.fail(http.StatusNotFound, "run %s not found in project %s", c.r.PathValue("shortId"), ProjectShortID)
		return
	}
	if st, _ := orig.stateAt(orig.elapsed(c.now)); !api.IsTerminalStatus(st) {
		c.fail(http.StatusBadRequest, "run %s is still %s; rerun it once it has finished", orig.shortID, st)
		return
	}
	ids, err := s.rerunTestCases(orig, &req)
	if c.refuseStart(err) {
		return
	}
	r := s.startRun(c.now, run{plan: orig.plan, testCaseIDs: ids, trigger: orig.trigger, branch: orig.branch,
		commit: orig.commit, apps: orig.apps})
	s.countWith(func(st *Stats) { st.Reruns++ })
	writeJSON(c.w, http.StatusOK, startResponse(r))
}

// rerunTestCases picks the test case ids a rerun of orig runs; nil means
// the original's plan timeline again.
func (s *Server) rerunTestCases(orig *run, req *api.RerunRequest) ([]string, error) {
	switch {
	case req.ProjectTestCaseIDs != nil:
		ids, err := s.validateTestCaseIDs("projectTestCaseIds", req.ProjectTestCaseIDs)
		if err != nil {
			return nil, err
		}
		for i, id := range ids {
			if !slices.ContainsFunc(orig.cases, func(c caseRun) bool { return c.tc.ID == id }) {
				return nil, errorf(http.StatusBadRequest, "projectTestCaseIds[%d]: test case %s is not in run %s; a rerun runs test cases of the original run", i, id, orig.shortID)
			}
		}
		return ids, nil
	case req.FailedOnly:
		var ids []string
		for _, tc := range orig.cases {
			if tc.result == api.ResultFailed || tc.status == api.StatusError {
				ids = append(ids, tc.tc.ID)
			}
		}
		if len(ids) == 0 {
			return nil, errorf(http.StatusBadRequest, "run %s has no failed test cases to rerun", orig.shortID)
		}
		return ids, nil
	}
	return orig.testCaseIDs, nil
}

// runTestCaseShortID names the i-th test case of a run: the run's short id
// and a 1-based position, which the logs operation decodes again.
func runTestCaseShortID(runShortID string, i int) string {
	return runShortID + "-" + strconv.Itoa(i+1)
}

// findRunTestCase resolves a run test case short id.
func (s *Server) findRunTestCase(shortID string) (*run, int) {
	runID, pos, _ := strings.Cut(shortID, "-") // no "-": pos "" is no number
	r := s.findRun(runID)
	n, err := strconv.Atoi(pos)
	if r == nil || err != nil || n < 1 || n > len(r.cases) || strconv.Itoa(n) != pos {
		return nil, 0
	}
	return r, n - 1
}

// refuseStart answers a request to start a run that cannot be: one found
// invalid (err), or, valid, over the usage limit (402: a valid request is
// what the organization is refused). It says whether it answered.
func (c *call) refuseStart(err error) bool {
	if err == nil && c.key == LimitKey {
		err = errorf(http.StatusPaymentRequired, msgLimit)
	}
	return refuse(c.w, err)
}
