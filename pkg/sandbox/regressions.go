package sandbox

import (
	"fmt"

	"github.com/testctl/testctl/pkg/api"
)

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
	p := &plan{ShortID: PlanRegressions, Name: fmt.Sprintf("Regressions (%d failing)", n),
		Status: api.StatusCompleted, Result: api.ResultFailed}
	for i := range n {
		tc := &testCase{ID: uuidFor(s.opts.Seed, "regression", fmt.Sprint(i)),
			Name: fmt.Sprintf("Regression %02d: pay with a declined card", i+1), Goal: card.Goal, Labels: []string{"benchmark"},
			Classification: "UI", Enabled: true, Fails: true, Duration: card.Duration, Profile: profileUI,
			FailTitle: card.FailTitle, FailThought: card.FailThought, Issues: []string{"payment-blank-page"}, FailStory: storyPaymentBlank,
			created: true, createdAtS: -30 * 86400, generatedAt: -30 * 86400}
		tc.ExpectedResult = "A clear decline message"
		s.created = append(s.created, tc)
		s.createdByID[tc.ID] = tc
		start := 1 + 0.5*float64(i)
		p.Cases = append(p.Cases, planCase{TC: tc.ID, Start: start, End: start + card.Duration,
			Status: api.StatusCompleted, Result: api.ResultFailed, testCase: tc})
	}
	s.regressions = p
}
