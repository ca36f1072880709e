package verdict

import (
	"cmp"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

// Options are the flags that change a verdict.
type Options struct {
	FailOnSkipped bool
	FailOnFlaky   bool
}

// Verdict is the decision every report renders.
type Verdict struct {
	Runs   []Run
	Counts Counts // over every run
	Code   int    // the command's exit code: the largest of the runs'
}

// Run is one record with what was decided of it.
type Run struct {
	Record
	Cases  []Case
	Counts Counts
	// Result is the run's outcome after every attempt: PASSED, FAILED,
	// SKIPPED, ERROR, CANCELLED; for a run without one, how the wait ended
	// (TIMED_OUT, INTERRUPTED, TERMINATED), NOT_STARTED or NO_VERDICT.
	Result string
	// Class is what the result means; every report renders it.
	Class RunClass
	Code  int
	// Because is the flag that failed a run that passed on its own
	// ("--fail-on-skipped"); "" when none did.
	Because string
}

// Decide classifies every test case of every record and gives each run and
// the command their exit codes. It is pure: the same records give the same
// verdict.
func Decide(recs []Record, o Options) Verdict {
	var v Verdict
	for _, r := range recs {
		run := decideRun(r, o)
		v.Runs = append(v.Runs, run)
		v.Counts.add(run.Counts)
		v.Code = max(v.Code, run.Code)
	}
	return v
}

func decideRun(r Record, o Options) Run {
	if r.Stop == "" && r.Err == nil && !r.NotStarted && r.Detail != nil && !Final(r.Detail.Status) {
		// Read, not waited for (run get --junit): nothing timed out.
		r.Stop = Unfinished
	}
	run := Run{Record: r, Cases: classify(r)}
	for _, c := range run.Cases {
		run.Counts.count(c.Class)
	}
	run.Result, run.Code = outcome(r, run.Counts)
	run.Class = runClass(r, run.Result)
	if run.Code == exitcode.OK {
		switch {
		case o.FailOnSkipped && (run.Class == RunSkipped || run.Counts.Skipped+run.Counts.NotRun > 0):
			run.Code, run.Because = exitcode.Failed, "--fail-on-skipped"
		case o.FailOnFlaky && run.Counts.Flaky > 0:
			run.Code, run.Because = exitcode.Failed, "--fail-on-flaky"
		}
	}
	if exitcode.Of(r.RerunErr) == exitcode.Service {
		// A rerun whose answer was lost may have started a run nobody
		// waits for: that says the service failed. One the service
		// refused (404, 400, 403) leaves the run's own verdict alone.
		run.Code = max(run.Code, exitcode.Service)
	}
	return run
}

// outcome is a run's result and code before the flags that fail passes.
func outcome(r Record, n Counts) (string, int) {
	switch {
	case r.NotStarted:
		return "NOT_STARTED", exitcode.Of(r.Err)
	case r.Err != nil:
		return "NO_VERDICT", exitcode.Of(r.Err)
	case r.Stop != "":
		return string(r.Stop), cmp.Or(stopCode[r.Stop], exitcode.Timeout)
	case r.Detail == nil:
		return "NO_VERDICT", exitcode.Service
	}
	switch r.Detail.Status {
	case api.StatusError, api.StatusCancelled:
		return r.Detail.Status, exitcode.RunError
	case api.StatusCompleted:
	default:
		return string(Unfinished), exitcode.Timeout // not final, and no wait ended: a report of a run going on
	}
	last := r.Detail.ResultOrEmpty()
	switch {
	case n.Failed+n.Errored > 0:
		return api.ResultFailed, exitcode.Failed
	case last != api.ResultPassed && last != api.ResultSkipped:
		// FAILED with no failed test case, or a result this client does not
		// know: a CI gate must not let through what it cannot tell passed.
		// After retries too: the last attempt's own result speaks for what
		// it ran, whatever its test cases say.
		return cmp.Or(last, api.ResultFailed), exitcode.Failed
	case len(r.Earlier) > 0 && len(r.Detail.RunTestCases) > 0:
		// After retries the test cases decide between PASSED and SKIPPED
		// (the last attempt ran only some of them), but a last attempt
		// that ended SKIPPED stays so: --fail-on-skipped fails it.
		if n.Passed+n.Flaky == 0 || last == api.ResultSkipped {
			return api.ResultSkipped, exitcode.OK
		}
		return api.ResultPassed, exitcode.OK
	}
	return last, exitcode.OK
}

// stopCode is the code of a wait interrupted or terminated before a run
// ended; one that timed out, or a report of an unfinished run, gives 7.
var stopCode = map[Stop]int{Interrupted: exitcode.Interrupted, Terminated: exitcode.Terminated}
