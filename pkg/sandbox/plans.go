package sandbox

import (
	"fmt"
	"slices"

	"github.com/testctl/testctl/pkg/api"
)

// Fixture plans. Each is a hand-written timeline (sandbox seconds after the
// run was started) rather than the output of the dependency scheduler, so
// the documented durations hold exactly: the passing plan completes at 10 s,
// the slow one at 3600 s. The timelines still respect the fixtures'
// dependencies (resume-from cases start when their dependency ends). A
// run's final status and result follow from its timeline (verdict).
type plan struct {
	ShortID string
	Name    string
	Cases   []caseRun
}

const (
	PlanPassing   = "pln-passing_sandbox"
	PlanFailing   = "pln-failing_sandbox"
	PlanErroring  = "pln-erroring_sandbox"
	PlanCancelled = "pln-cancelled_sandbox"
	PlanSkipped   = "pln-skipped_sandbox"
	PlanSlow      = "pln-slow_sandbox"
	// PlanFlaky ends FAILED with two failed test cases that pass when its
	// failed test cases are rerun (failedOnly), for rehearsing retries.
	PlanFlaky = "pln-flaky_sandbox"
	// PlanBaseline fails two test cases; its history on main (BaselineRuns)
	// fails one of them, so against --baseline main one failure is known
	// and the other new.
	PlanBaseline = "pln-baseline_sandbox"
	// PlanEmpty has no test case: its run ends COMPLETED/PASSED at once,
	// having run nothing (a gate fails it unless --pass-with-no-tests).
	PlanEmpty = "pln-empty_sandbox"
)

// passed and failed are a fixture test case ending with its own pass or
// fail text.
func passed(id string, start, end float64) caseRun {
	return completed(fixtureByID(id), start, end, false)
}

func failed(id string, start, end float64) caseRun {
	return completed(fixtureByID(id), start, end, true)
}

const (
	cancelTitle   = "Cancelled: the run was cancelled by sandbox-bot"
	cancelThought = "A user cancelled the run before this test case could finish."
	skipTitle     = "Skipped: no device is available for preset_sandbox-pixel"
	skipThought   = "The plan targets the Pixel device preset and the sandbox device farm has none free, so the test case was skipped without running."
)

var fixturePlans = []*plan{
	{ShortID: PlanPassing, Name: "Smoke (passing)", Cases: []caseRun{
		passed(TestCaseLogin, 1, 4), passed(TestCaseSearch, 1.5, 7.5), passed(TestCaseHealthAPI, 2, 4),
		passed(TestCaseAddToCart, 4, 7), passed(TestCaseCheckout, 7, 10),
	}},
	{ShortID: PlanFailing, Name: "Checkout regression (failing)", Cases: []caseRun{
		passed(TestCaseLogin, 1, 4), failed(TestCaseExpiredCoupon, 1.5, 6.5), failed(TestCaseDeclinedCard, 2, 8),
		passed(TestCaseAddToCart, 4, 7), passed(TestCaseCheckout, 7, 10),
		{tc: fixtureByID(TestCaseOrderEmail), start: 10, end: 10, status: api.StatusCompleted, result: api.ResultSkipped,
			title:   skippedByDependencyTitle(fixtureByID(TestCaseExpiredCoupon).Name),
			thought: skippedByDependencyThought(fixtureByID(TestCaseExpiredCoupon).Name, api.ResultFailed)},
		passed(TestCaseOrderHistory, 10, 12),
	}},
	{ShortID: PlanErroring, Name: "Staging environment (erroring)", Cases: []caseRun{
		passed(TestCaseLogin, 1, 4), passed(TestCaseHealthAPI, 1.5, 3),
		{tc: fixtureByID(TestCaseSearch), start: 2, end: 6, status: api.StatusError,
			title:   "Environment " + envStagingURL + " stopped responding",
			thought: "Three page loads in a row timed out after 30 s, so the agent stopped the test case with an error.",
			issues:  []string{"environment-down"}, story: storyEnvironmentDown},
		{tc: fixtureByID(TestCaseAddToCart), start: 4, end: 6, status: api.StatusError,
			title: "Not finished: the run ended in error", thought: "The environment became unreachable while this test case was running: its page loads timed out.",
			issues: []string{"environment-down"}, story: storyEnvironmentDown},
	}},
	{ShortID: PlanCancelled, Name: "Nightly full suite (cancelled)", Cases: []caseRun{
		passed(TestCaseLogin, 1, 4), passed(TestCaseHealthAPI, 2, 3.5),
		{tc: fixtureByID(TestCaseSearch), start: 1.5, end: 6, status: api.StatusCancelled, title: cancelTitle, thought: cancelThought},
		{tc: fixtureByID(TestCaseAddToCart), start: 4, end: 6, status: api.StatusCancelled, title: cancelTitle, thought: cancelThought},
		{tc: fixtureByID(TestCaseCheckout), start: 6, end: 6, status: api.StatusCancelled, title: cancelTitle, thought: cancelThought},
	}},
	{ShortID: PlanSkipped, Name: "Mobile checkout (skipped)", Cases: []caseRun{
		{tc: fixtureByID(TestCaseLogin), start: 1, end: 3, status: api.StatusCompleted, result: api.ResultSkipped, title: skipTitle, thought: skipThought},
		{tc: fixtureByID(TestCaseAddToCart), start: 1.5, end: 3.5, status: api.StatusCompleted, result: api.ResultSkipped, title: skipTitle, thought: skipThought},
	}},
	{ShortID: PlanSlow, Name: "Full regression (slow)", Cases: []caseRun{
		passed(TestCaseLogin, 2, 1200), passed(TestCaseHealthAPI, 3, 1800), passed(TestCaseSearch, 2, 2400),
		passed(TestCaseAddToCart, 1200, 3600),
	}},
	// The two failures are of test cases that pass whenever they run by id,
	// so a rerun of the failed test cases passes: a flaky run.
	{ShortID: PlanFlaky, Name: "Storefront smoke (flaky)", Cases: []caseRun{
		passed(TestCaseLogin, 1, 4),
		{tc: fixtureByID(TestCaseSearch), start: 1.5, end: 7.5, status: api.StatusCompleted, result: api.ResultFailed,
			title:   "Results stopped loading at page 17 of 24",
			thought: "Scrolling loaded 16 pages, then the request for page 17 timed out after 10 s and no more results appeared, so the end of the results was never reached.",
			issues:  []string{"search-page-timeout"}, story: storySearchStalled},
		{tc: fixtureByID(TestCaseHealthAPI), start: 2, end: 4, status: api.StatusCompleted, result: api.ResultFailed,
			title:   "GET /health returned 503 {\"status\":\"starting\"}",
			thought: "The health call answered 503 Service Unavailable with status starting instead of 200 with status ok.",
			issues:  []string{"health-starting"}, story: storyHealthStarting},
		passed(TestCaseAddToCart, 4, 7), passed(TestCaseCheckout, 7, 10),
	}},
	{ShortID: PlanBaseline, Name: "Checkout against main (baseline)", Cases: []caseRun{
		passed(TestCaseLogin, 1, 4), failed(TestCaseExpiredCoupon, 1.5, 6.5), failed(TestCaseDeclinedCard, 2, 8),
		passed(TestCaseAddToCart, 4, 7),
	}},
	{ShortID: PlanEmpty, Name: "Disabled suite (empty)"},
}

func findPlan(shortID string) *plan {
	if i := slices.IndexFunc(fixturePlans, func(p *plan) bool { return p.ShortID == shortID }); i >= 0 {
		return fixturePlans[i]
	}
	return nil
}

func fixtureByID(id string) *testCase {
	if i := slices.IndexFunc(fixtureTestCases, func(tc *testCase) bool { return tc.ID == id }); i >= 0 {
		return fixtureTestCases[i]
	}
	return nil
}

func skippedByDependencyTitle(depName string) string {
	return "Not run: waits for \"" + depName + "\", which did not pass"
}

func skippedByDependencyThought(depName, depOutcome string) string {
	return "Wait-for dependencies must all end COMPLETED with PASSED before this test case starts. \"" +
		depName + "\" ended " + depOutcome + ", so this test case did not run."
}

// PlanIDs are the short ids of the fixture plans, for hints and completion.
func PlanIDs() []string {
	ids := make([]string, len(fixturePlans))
	for i, p := range fixturePlans {
		ids[i] = p.ShortID
	}
	return ids
}

// PlanName is a fixture plan's name, "" for an id that is not one.
func PlanName(shortID string) string {
	if p := findPlan(shortID); p != nil {
		return p.Name
	}
	return ""
}

// PlanRegressions runs the test cases of Options.FailingTestCases, all of
// which fail; it exists only with that option.
const PlanRegressions = "pln-regressions_sandbox"

// MaxFailingTestCases bounds Options.FailingTestCases.
const MaxFailingTestCases = 1000

// addRegressions adds n failing test cases to the project, as if created
// long ago and generated, and the plan that runs them: a run with as many
// failures as a benchmark of the reports needs. Each fails like the
// declined card, and its telemetry and issues say so.
func (s *Server) addRegressions(n int) {
	n = min(n, MaxFailingTestCases)
	if n <= 0 {
		return
	}
	card := fixtureByID(TestCaseDeclinedCard)
	p := &plan{ShortID: PlanRegressions, Name: fmt.Sprintf("Regressions (%d failing)", n)}
	for i := range n {
		tc := &testCase{ID: uuidFor(s.opts.Seed, "regression", fmt.Sprint(i)),
			Name: fmt.Sprintf("Regression %02d: pay with a declined card", i+1), Goal: card.Goal, Labels: []string{"benchmark"},
			Classification: "UI", Enabled: true, Fails: true, Duration: card.Duration, Profile: profileUI,
			FailTitle: card.FailTitle, FailThought: card.FailThought, Issues: []string{"payment-blank-page"}, FailStory: storyPaymentBlank,
			createdAtS: -30 * 86400, generatedAt: -30 * 86400}
		s.created = append(s.created, tc)
		s.createdByID[tc.ID] = tc
		start := 1 + 0.5*float64(i)
		p.Cases = append(p.Cases, completed(tc, start, start+card.Duration, true))
	}
	s.regressions = p
}
