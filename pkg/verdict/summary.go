package verdict

import "github.com/testctl/testctl/pkg/api"

// Mark is how the run ended, in the classes of its test cases, for the
// reports that colour or order runs by them (the HTML report): never
// Passed, Flaky or Skipped for a run whose Code is not 0.
//
//   - a start that failed, a run without a verdict (polling stopped, no
//     answer), a run that ended ERROR or CANCELLED: Errored;
//   - a wait that ended before the run did (--timeout, Ctrl-C, SIGTERM, a
//     report of an unfinished run): NotRun, as its test cases still
//     running; the run goes on;
//   - any other run that fails the command (FAILED, a result testctl does
//     not know, a flag that fails a pass, a rerun lost): Failed;
//   - a pass: Flaky when a test case passed only on a retry, Skipped when
//     the run ended SKIPPED, else Passed.
func (r Run) Mark() Class {
	switch {
	case r.Class == RunNotStarted || r.Class == RunNoVerdict || r.Class == RunErrored:
		return Errored
	case r.Class == RunStopped:
		return NotRun
	case r.Code != 0:
		return Failed
	case r.Counts.Flaky > 0:
		return Flaky
	case r.Class == RunSkipped:
		return Skipped
	}
	return Passed
}

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
