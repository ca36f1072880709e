package verdict

import "github.com/testctl/testctl/pkg/api"

// SummaryClass is what a run of the run list (an api.RunSummary, such as a
// plan's recent runs) means, from its status and result alone, by the
// rules Decide gives a run and its test cases:
//
//   - COMPLETED with PASSED: Passed; with SKIPPED: Skipped; with any other
//     result, or none: Failed (a CI gate does not let through what it
//     cannot tell passed);
//   - ERROR or CANCELLED: Errored;
//   - any other status (INITIATED, RUNNING, or one testctl does not know):
//     NotRun, a run that has not ended: a wait on it would go on.
//
// It works for a run's attempts too, each from its own latest answer.
func SummaryClass(status, result string) Class {
	return ClassOf(api.RunTestCase{Status: status, Result: result}, false)
}
