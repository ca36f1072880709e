package sandbox

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/testctl/testctl/pkg/api"
)

// burnIn is how long (sandbox seconds) a created test case stays
// GENERATING before its recorded steps are saved.
const burnIn = 60

// testCaseItem is api.TestCase plus what the sandbox knows beyond the
// published shape: the dependencies.
type testCaseItem struct {
	api.TestCase
	ResumeFrom string   `json:"resumeFromDependencyProjectTestCaseId,omitempty"`
	WaitFor    []string `json:"waitForDependenciesProjectTestCaseIds,omitempty"`
}

// allTestCases lists the fixtures, then created test cases oldest first.
func (s *Server) allTestCases() []*testCase {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append(slices.Clip(fixtureTestCases), s.created...)
}

func (s *Server) testCaseItem(tc *testCase, now float64) testCaseItem {
	out := testCaseItem{TestCase: api.TestCase{ID: tc.ID, Name: tc.Name, IsEnabled: tc.Enabled,
		Labels: append([]string{}, tc.Labels...), Classification: tc.Classification, ApplicationShortID: appWebID,
		ApplicationName: appWebName, Goal: tc.Goal, CreatedAt: s.stamp(tc.createdAtS), LastRun: s.lastRun(tc.ID, now),
		GenerationStatus: api.GenerationCompleted}, ResumeFrom: tc.ResumeFrom, WaitFor: tc.WaitFor}
	if now < tc.generatedAt {
		out.GenerationStatus = api.GenerationGenerating
	}
	return out
}

// lastRun is the latest run that included the test case: one started here,
// else the newest past run whose kind includes it.
func (s *Server) lastRun(id string, now float64) *api.TestCaseRun {
	isIt := func(c caseRun) bool { return c.tc.ID == id }
	found := s.latestRun(func(_ *plan, cases []caseRun) bool { return slices.ContainsFunc(cases, isIt) })
	if found == nil {
		return nil
	}
	c, e := &found.cases[slices.IndexFunc(found.cases, isIt)], found.elapsed(now)
	out := &api.TestCaseRun{ShortID: found.shortID}
	out.Status, out.Result = c.stateAt(e)
	if c.final(e) {
		out.CompletedAt = s.stamp(found.created + c.end)
	}
	return out
}

// handleListTestCases is GET /v1/test-cases. labels is comma-separated and
// matches test cases carrying ANY of the labels.
func (s *Server) handleListTestCases(c *call) {
	app := c.q["applicationShortId"]
	if app != "" && !hasPrefixID(app, "app_") {
		c.fail(http.StatusBadRequest, "applicationShortId %q must start with app_", app)
		return
	}
	var err error
	enabled, enabledSet := c.q.boolean(&err, "isEnabled")
	limit, offset, ok := c.page(err)
	if !ok {
		return
	}
	if app != "" && app != appWebID {
		c.fail(http.StatusNotFound, "application %s not found in project %s", app, ProjectShortID)
		return
	}
	var labels []string
	for _, l := range strings.Split(c.q["labels"], ",") {
		if l = strings.TrimSpace(l); l != "" {
			labels = append(labels, l)
		}
	}
	list := struct {
		TestCases []testCaseItem `json:"testCases"`
		Total     int32          `json:"total"`
		Limit     int32          `json:"limit"`
		Offset    int32          `json:"offset"`
	}{TestCases: []testCaseItem{}, Limit: int32(limit), Offset: int32(min(offset, 1<<31-1))}
	for _, tc := range s.allTestCases() {
		if enabledSet && tc.Enabled != enabled {
			continue
		}
		if len(labels) > 0 && !slices.ContainsFunc(labels, func(l string) bool { return slices.Contains(tc.Labels, l) }) {
			continue
		}
		if int(list.Total) >= offset && len(list.TestCases) < limit {
			list.TestCases = append(list.TestCases, s.testCaseItem(tc, c.now))
		}
		list.Total++
	}
	writeJSON(c.w, http.StatusOK, list)
}

// createTestCaseBody also accepts projectShortId, which the service infers
// from the key but an organization-scoped client may send anyway.
type createTestCaseBody struct {
	api.CreateTestCaseRequest
	ProjectShortID string `json:"projectShortId,omitempty"`
}

type createTestCaseResponse struct {
	api.CreateTestCaseResponse
	ApplicationShortID string `json:"applicationShortId"`
	CreatedAt          string `json:"createdAt"`
}

// handleCreateTestCase is POST /v1/test-cases. Format errors (400) are
// reported before unknown references (404).
func (s *Server) handleCreateTestCase(c *call) {
	var body createTestCaseBody
	if refuse(c.w, decodeBody(c.w, c.r, &body, false)) || refuse(c.w, c.project(body.ProjectShortID, false)) {
		return
	}
	req := &body.CreateTestCaseRequest
	if refuse(c.w, s.validateCreate(req)) {
		return
	}
	tc := &testCase{Name: req.Name, Goal: req.Goal, Labels: []string{}, Duration: 4, Profile: profileUI,
		Classification: "UI", ResumeFrom: strings.ToLower(req.ResumeFromDependencyProjectTestCaseID),
		PassTitle:   "Goal reached: " + req.Goal,
		PassThought: "The recorded steps reached the goal and nothing contradicted the expected result.",
		createdAtS:  c.now, generatedAt: c.now + burnIn}
	for _, d := range req.WaitForDependenciesProjectTestCaseIDs {
		if d = strings.ToLower(d); !slices.Contains(tc.WaitFor, d) {
			tc.WaitFor = append(tc.WaitFor, d)
		}
	}
	s.mu.Lock()
	tc.ID = uuidFor(s.opts.Seed, "created-test-case", strconv.Itoa(len(s.created)))
	s.created = append(s.created, tc)
	s.createdByID[tc.ID] = tc
	s.mu.Unlock()
	s.countWith(func(st *Stats) { st.TestCasesCreated++ })
	writeJSON(c.w, http.StatusOK, createTestCaseResponse{
		CreateTestCaseResponse: api.CreateTestCaseResponse{ID: tc.ID, Name: tc.Name, IsEnabled: false, GenerationStatus: api.GenerationGenerating},
		ApplicationShortID:     appWebID, CreatedAt: s.stamp(c.now)})
}

func (s *Server) validateCreate(req *api.CreateTestCaseRequest) error {
	n := utf8.RuneCountInString(req.Name)
	switch {
	case strings.TrimSpace(req.Name) == "":
		return errorf(http.StatusBadRequest, "name is required (1 to 80 characters)")
	case n > 80:
		return errorf(http.StatusBadRequest, "name is %d characters long; it must be 1 to 80 characters", n)
	case strings.TrimSpace(req.Goal) == "":
		return errorf(http.StatusBadRequest, "goal is required")
	case req.ApplicationShortID == "":
		return errorf(http.StatusBadRequest, "applicationShortId is required")
	case !hasPrefixID(req.ApplicationShortID, "app_"):
		return errorf(http.StatusBadRequest, "applicationShortId %q must start with app_", req.ApplicationShortID)
	case req.ScenarioShortID != "" && !hasPrefixID(req.ScenarioShortID, "scenario_"):
		return errorf(http.StatusBadRequest, "scenarioShortId %q must start with scenario_", req.ScenarioShortID)
	case req.ResumeFromDependencyProjectTestCaseID != "" && !uuidPattern().MatchString(req.ResumeFromDependencyProjectTestCaseID):
		return errorf(http.StatusBadRequest, "resumeFromDependencyProjectTestCaseId %q is not a UUID", req.ResumeFromDependencyProjectTestCaseID)
	}
	if i := slices.IndexFunc(req.ConfigShortIDs, func(cfg string) bool { return !hasPrefixID(cfg, "cfg_") }); i >= 0 {
		return errorf(http.StatusBadRequest, "configShortIds[%d] %q must start with cfg_", i, req.ConfigShortIDs[i])
	}
	waitFor := req.WaitForDependenciesProjectTestCaseIDs
	if i := slices.IndexFunc(waitFor, func(d string) bool { return !uuidPattern().MatchString(d) }); i >= 0 {
		return errorf(http.StatusBadRequest, "waitForDependenciesProjectTestCaseIds[%d] %q is not a UUID", i, waitFor[i])
	}
	if req.ApplicationShortID != appWebID {
		return errorf(http.StatusNotFound, "application %s not found in project %s", req.ApplicationShortID, ProjectShortID)
	}
	if req.ScenarioShortID != "" && !knownScenarios[req.ScenarioShortID] {
		return errorf(http.StatusNotFound, "scenario %s not found in project %s", req.ScenarioShortID, ProjectShortID)
	}
	if i := slices.IndexFunc(req.ConfigShortIDs, func(cfg string) bool { return !knownConfigs[cfg] }); i >= 0 {
		return errorf(http.StatusNotFound, "config %s not found in project %s", req.ConfigShortIDs[i], ProjectShortID)
	}
	deps := waitFor
	if r := req.ResumeFromDependencyProjectTestCaseID; r != "" {
		deps = append([]string{r}, deps...)
	}
	if i := slices.IndexFunc(deps, func(d string) bool { return s.lookupTestCase(strings.ToLower(d)) == nil }); i >= 0 {
		return errorf(http.StatusNotFound, "dependency test case %s not found in project %s", deps[i], ProjectShortID)
	}
	return nil
}
