// Package evidence gathers what the service captured while a test case that
// did not pass ran — its failed network requests, console errors and
// warnings, failed API calls and the run's detected issues that name it — so
// that the reports can show why it failed where the CI user already looks.
// Gathering never decides a verdict and never changes an exit code.
package evidence

import (
	"cmp"

	"github.com/testctl/testctl/pkg/api"
)

// Target is one test case whose evidence is wanted.
type Target struct {
	RunShortID  string // the run the telemetry belongs to (a flaky case's failed attempt)
	CaseShortID string // the run test case short id whose logs are read
	Name        string
	Plan        string // the plan's title, for the commands and headings

	// The evaluation, for the reports that show it beside the evidence:
	// the result (or the status when there is none: ERROR, CANCELLED),
	// its title and the agent's reasoning, as the run detail gave them.
	Result            string
	ResultTitle       string
	EvaluationThought string
}

// TargetOf is the target of a run test case as the run detail gives it.
func TargetOf(runShortID, plan string, tc api.RunTestCase) Target {
	return Target{RunShortID: runShortID, CaseShortID: tc.ShortID, Name: tc.Name, Plan: plan,
		Result: cmp.Or(tc.Result, tc.Status), ResultTitle: tc.ResultTitle, EvaluationThought: tc.EvaluationThought}
}

// Case is the evidence of one test case.
type Case struct {
	Target
	Network  Part[api.NetworkEntry]
	Console  Part[api.ConsoleEntry]
	APICalls Part[api.APICallEntry]
	// Issues are the run's detected issues that name this test case.
	Issues Part[api.Issue]
	// Skipped says why none of its logs was asked for: the service gave
	// it an id that cannot go into a request's path. Its log parts are
	// unavailable for the same reason.
	Skipped string
}

// Part is one kind of evidence as read from the service.
type Part[T any] struct {
	Entries []T
	// Total is how many entries matched on the service (totalMatched);
	// More: the service's cap cut the list (hasMore).
	Total int
	More  bool
	// Unavailable says why this part could not be read ("HTTP 500",
	// "timed out"); "" when it was read (or not asked for).
	Unavailable string
}
