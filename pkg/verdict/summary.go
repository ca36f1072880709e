package verdict

import "github.com/testctl/testctl/pkg/api"

// Class is how the run ended, in the classes of its test cases, for the
// reports that colour or order runs (the HTML report): never Passed, Flaky
// or Skipped for a run whose Code is not 0.
//
//   - a start that failed, or a run without a verdict (polling stopped, no
//     answer): Errored;
//   - a wait that ended before the run did (--timeout, Ctrl-C, SIGTERM, a
//     report of an unfinished run): NotRun, as its test cases still
//     running; the run goes on;
//   - a run that ended ERROR or CANCELLED: Errored;
//   - any other run that fails the command (FAILED, a result testctl does
//     not know, a flag that fails a pass, a rerun that could not start):
//     Failed;
//   - a pass: Flaky when a test case passed only on a retry, Skipped when
//     the run's result is SKIPPED, else Passed.
func (r Run) Class() Class {
	switch {
	case r.NotStarted || r.Err != nil:
		return Errored
	case r.Stop != "":
		return NotRun
	case r.Detail == nil:
		return Errored
	case !r.Finished():
		return NotRun
	case r.Detail.Status == api.StatusError || r.Detail.Status == api.StatusCancelled:
		return Errored
	case r.Code != 0:
		return Failed
	case r.Counts.Flaky > 0:
		return Flaky
	case r.Result == api.ResultSkipped:
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
