package sandbox

import (
	"net/http"
	"slices"

	"github.com/testctl/testctl/pkg/api"
)

// runDetailResponse is api.RunDetail with issues that serialise as [] when
// requested and there are none (the model omits an empty list, which a
// client could not tell from "not requested").
type runDetailResponse struct {
	api.RunDetail
	Issues *[]api.Issue `json:"issues,omitempty"`
}

// handleGetRun is GET /v1/run/{shortId}. Without testCases the list is
// empty, as on the service; testCases=failed keeps the test cases that
// ended FAILED, SKIPPED or ERROR.
func (s *Server) handleGetRun(c *call) {
	var err error
	mode := c.q.oneOf(&err, "testCases", "", "all", "failed")
	withIssues, _ := c.q.boolean(&err, "issues")
	if refuse(c.w, err) {
		return
	}
	r := s.findRun(c.r.PathValue("shortId"))
	if r == nil {
		c.fail(http.StatusNotFound, "run %s not found in project %s", c.r.PathValue("shortId"), ProjectShortID)
		return
	}
	e := r.elapsed(c.now)
	resp := runDetailResponse{RunDetail: api.RunDetail{ID: r.id, ShortID: r.shortID, RunTestCases: []api.RunTestCase{}}}
	resp.Status, resp.Result = r.stateAt(e)
	// Not in the published detail; the sandbox sends the run's plan and
	// page as the service's start answer does, which clients read when
	// present to name a run's reports.
	resp.URL = runURL(r.shortID)
	if r.plan != nil {
		resp.TestPlan = &api.TestPlan{Name: r.plan.Name, ShortID: r.plan.ShortID}
	}
	if mode != "" {
		for i := range r.cases {
			rtc := s.runTestCase(r, i, e)
			if mode == "all" || rtc.Result == api.ResultFailed || rtc.Result == api.ResultSkipped || rtc.Status == api.StatusError {
				resp.RunTestCases = append(resp.RunTestCases, rtc)
			}
		}
	}
	if withIssues {
		resp.Issues = new(s.issuesOf(r, e))
	}
	writeJSON(c.w, http.StatusOK, resp)
}

// runTestCase is the i-th test case of r as seen e seconds into the run:
// no result, title or thought until it has finished.
func (s *Server) runTestCase(r *run, i int, e float64) api.RunTestCase {
	c := &r.cases[i]
	short := runTestCaseShortID(r.shortID, i)
	out := api.RunTestCase{ID: uuidFor(s.opts.Seed, "run-test-case", short), ShortID: short,
		Name: c.tc.Name, PromptGoal: c.tc.Goal, PromptExamples: c.tc.Examples}
	out.Status, out.Result = c.stateAt(e)
	if c.final(e) {
		out.ResultTitle, out.EvaluationThought = c.title, c.thought
	}
	return out
}

// issuesOf deduplicates the issues of the test cases that have finished,
// listing for each the test cases it was seen in.
func (s *Server) issuesOf(r *run, e float64) []api.Issue {
	out := []api.Issue{}
	at := map[string]int{}
	for i := range r.cases {
		c := &r.cases[i]
		if !c.final(e) {
			continue
		}
		for _, key := range c.issues {
			if _, ok := at[key]; !ok {
				iss := issueCatalogue[key]
				iss.ID, iss.ShortID = uuidFor(s.opts.Seed, "issue", key), "iss_"+hexFor(10, s.opts.Seed, "issue", key)
				iss.HelpURL, iss.Status, iss.TestCases = "https://docs.sandbox.testctl.invalid/issues/"+key, "OPEN", []api.IssueTestCase{}
				at[key] = len(out)
				out = append(out, iss)
			}
			iss := &out[at[key]]
			iss.TestCases = append(iss.TestCases, api.IssueTestCase{ShortID: runTestCaseShortID(r.shortID, i), Name: c.tc.Name})
		}
	}
	return out
}

// summary is r as an item of GET /v1/run at sandbox time now.
func (s *Server) summary(r *run, now float64) api.RunSummary {
	e := r.elapsed(now)
	first, last := r.span()
	out := api.RunSummary{ShortID: r.shortID, Trigger: r.trigger, CreatedAt: s.stamp(r.created),
		URL: runURL(r.shortID), ApplicationShortIDs: r.apps, TotalCount: len(r.cases)}
	out.Status, out.Result = r.stateAt(e)
	if r.branch != "" {
		out.Branch = &r.branch
	}
	if r.commit != "" {
		out.CommitHash = &r.commit
	}
	if r.plan != nil {
		out.TestPlanShortID = &r.plan.ShortID
	}
	if e >= first {
		out.StartedAt = new(s.stamp(r.created + first))
	}
	if e >= last {
		out.FinishedAt = new(s.stamp(r.created + last))
	}
	for i := range r.cases {
		switch st, res := r.cases[i].stateAt(e); {
		case st == api.StatusError:
			out.ErroredCount++
		case st == api.StatusCancelled:
			out.CancelledCount++
		case res == api.ResultPassed:
			out.PassedCount++
		case res == api.ResultFailed:
			out.FailedCount++
		case res == api.ResultSkipped:
			out.SkippedCount++
		}
	}
	return out
}

// handleListRuns is GET /v1/run: runs started here (newest first), then the
// generated history. limit defaults to 20 and must be 1 to 100.
func (s *Server) handleListRuns(c *call) {
	var f runFilter
	var err error
	statuses := []string{api.StatusInitiated, api.StatusRunning, api.StatusCompleted, api.StatusError, api.StatusCancelled}
	f.status = c.q.oneOf(&err, "status", "", statuses...)
	f.result = c.q.oneOf(&err, "result", "", api.ResultPassed, api.ResultFailed, api.ResultSkipped)
	f.trigger = c.q.oneOf(&err, "trigger", "", api.TriggerAPI, api.TriggerCodehost)
	limit, offset, ok := c.page(err)
	if !ok {
		return
	}
	f.branch, f.plan, f.commit = c.q["branch"], c.q["testPlanShortId"], c.q["commitHash"]
	if f.plan != "" && !planIDPattern().MatchString(f.plan) {
		c.fail(http.StatusBadRequest, "testPlanShortId %q is not a test plan short id (pln_<id> or pln-<slug>_<id>)", f.plan)
		return
	}

	s.mu.RLock()
	live := s.runOrder // append-only: the runs it holds never change
	s.mu.RUnlock()
	list := api.RunList{Runs: []api.RunSummary{}, Limit: int32(limit), Offset: int32(min(offset, 1<<31-1))}
	total := 0
	take := func(build func() api.RunSummary) {
		if total >= offset && len(list.Runs) < limit {
			list.Runs = append(list.Runs, build())
		}
		total++
	}
	for _, r := range slices.Backward(live) {
		if sum := s.summary(r, c.now); s.visible(r, c.now) && f.matchSummary(&sum) {
			take(func() api.RunSummary { return sum })
		}
	}
	for i := range s.baselineRuns() {
		if sum := s.summary(s.baselineRun(i), c.now); f.matchSummary(&sum) {
			take(func() api.RunSummary { return sum })
		}
	}
	for i, a := range s.history {
		if !f.matchAttr(a) {
			continue
		}
		if sum := s.summary(s.historyRun(i), c.now); f.commit == "" || f.matchSummary(&sum) {
			take(func() api.RunSummary { return sum })
		}
	}
	list.Total = int32(total)
	writeJSON(c.w, http.StatusOK, list)
}
