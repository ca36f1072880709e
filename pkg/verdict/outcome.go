package verdict

import (
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

// Outcome is what was decided of a run, the one value every report
// renders: the reports derive their words and colours from it.
type Outcome struct {
	// Result is the run's outcome after every attempt: PASSED, FAILED,
	// SKIPPED, ERROR, CANCELLED; for a run without one, how the wait ended
	// (TIMED_OUT, INTERRUPTED, TERMINATED), NOT_STARTED or NO_VERDICT.
	Result string
	Class  RunClass
	Code   int
	// Because is what failed a run that passed on its own: a flag
	// ("--fail-on-skipped") or NoTestCase; "" when nothing did.
	Because string
}

// NoTestCase is the Because of a run that ended PASSED or SKIPPED with no
// test case at all, without --pass-with-no-tests.
const NoTestCase = "ran no test case"

// OK reports whether the run lets the gate through (Playwright's ok()):
// one that is OK may still have something to warn of.
func (o Outcome) OK() bool { return o.Code == exitcode.OK }

// RunClass is what a run's outcome means, decided with its code: every
// report picks its mark, colour, wording and JUnit element from it, never
// from the service's status or result words.
type RunClass string

const (
	RunPassed  RunClass = "passed"
	RunSkipped RunClass = "skipped" // ended SKIPPED: its test cases did not run
	RunFailed  RunClass = "failed"  // COMPLETED with FAILED, or a result testctl does not know
	RunErrored RunClass = "errored" // ended ERROR or CANCELLED
	// RunStopped: the wait ended before the run did (a timeout, a signal,
	// a report of an unfinished run).
	RunStopped    RunClass = "stopped"
	RunNoVerdict  RunClass = "no verdict" // never read, or polling failed for good
	RunNotStarted RunClass = "not started"
)

// runClass is the class of a run whose result and code outcome gave.
func runClass(r Record, result string) RunClass {
	switch {
	case r.NotStarted:
		return RunNotStarted
	case r.Err != nil || r.Detail == nil && r.Stop == "":
		return RunNoVerdict
	case r.Stop != "" || !Final(r.Detail.Status):
		return RunStopped
	case r.Detail.Status != api.StatusCompleted:
		return RunErrored
	case result == api.ResultPassed:
		return RunPassed
	case result == api.ResultSkipped:
		return RunSkipped
	}
	return RunFailed
}

// Final reports whether a run or test case status is one it ends in.
func Final(status string) bool { return api.IsTerminalStatus(status) }

// WordClass is the class a lone status or result word stands for where a
// line shows it as the service sends it (a status line, the run list):
// PASSED and COMPLETED passed (a run that ended as it should; its result
// says the rest), FAILED failed, ERROR and CANCELLED errored, SKIPPED
// skipped, RUNNING and INITIATED not run yet; "" for a word testctl does
// not know. The views colour the word by it.
func WordClass(word string) Class {
	switch strings.ToUpper(word) {
	case api.ResultPassed, api.StatusCompleted:
		return Passed
	case api.ResultFailed:
		return Failed
	case api.StatusError, api.StatusCancelled:
		return Errored
	case api.ResultSkipped:
		return Skipped
	case api.StatusRunning, api.StatusInitiated:
		return NotRun
	}
	return ""
}

// Live tallies the test cases of a run as it goes, for the progress views:
// the classes of the verdict, with the test cases not ended yet told apart
// as running or queued. A run that ended is tallied by Decide instead.
func Live(tcs []api.RunTestCase) LiveCounts {
	var n LiveCounts
	for _, tc := range tcs {
		switch {
		case tc.Status == api.StatusRunning:
			n.Running++
		case !Final(tc.Status):
			n.Queued++
		default:
			n.count(ClassOf(tc, true))
		}
	}
	return n
}

// LiveCounts are a run's test cases as it goes.
type LiveCounts struct {
	Counts
	Running, Queued int
}

// String lists the non-zero counts: "3 passed · 1 failed · 2 running".
func (n LiveCounts) String() string {
	return JoinCounts("no test cases yet", []int{n.Passed, n.Failed, n.Skipped, n.Errored, n.Running, n.Queued},
		"passed", "failed", "skipped", "errored", "running", "queued")
}
