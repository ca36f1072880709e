package verdict

import (
	"fmt"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/termtext"
)

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

// Warned reports whether a run that passes the gate has something to say:
// it ended SKIPPED, or some test cases were skipped, did not run, passed
// only on a retry, or failed without failing the gate (known with
// --fail-on new, or quarantined).
func (r Run) Warned() bool {
	return r.Code == 0 && (r.Class == RunSkipped || r.Counts.Flaky+r.Counts.Skipped+r.Counts.NotRun+r.Counts.Failed+r.Counts.Errored > 0)
}

// StatusText is the run's status and its result after every attempt,
// "COMPLETED · FAILED"; the service's status alone while it has no result;
// the result word (NOT_STARTED, NO_VERDICT) when it was never read.
func (r Run) StatusText() string {
	switch {
	case r.Detail == nil:
		return r.Result
	case r.Class == RunStopped || r.Class == RunErrored || r.Class == RunNoVerdict:
		return DetailStatusText(r.Detail)
	}
	return r.Detail.Status + " · " + r.Result
}

// DetailStatusText is a run detail's own "COMPLETED · FAILED", or its bare
// status while there is no result.
func DetailStatusText(d *api.RunDetail) string {
	if res := d.ResultOrEmpty(); res != "" {
		return d.Status + " · " + res
	}
	return d.Status
}

// Why says, in words, why a run the gate fails failed when none of its test
// cases says so (a run-level annotation, JUnit's run verdict); "" when a
// test case that fails the gate does, or the run passed. Test cases whose
// failures the gate excuses (known, quarantined) do not say why it failed.
func (r Run) Why() string {
	if r.Code == 0 || r.Gating() > 0 {
		return ""
	}
	status := termtext.SanitizeLine(r.StatusText())
	switch {
	case r.Class == RunNotStarted, r.Class == RunNoVerdict:
		return firstLine(r.Err)
	case r.Class == RunStopped && r.Detail == nil:
		return "no answer before " + r.Stop.Why()
	case r.Class == RunStopped:
		return fmt.Sprintf("still %s when %s", termtext.SanitizeLine(r.Detail.Status), r.Stop.Why())
	case r.RerunErr != nil && r.Code == exitcode.Service:
		return firstLine(r.RerunErr)
	case r.Class == RunErrored:
		return "the run ended " + status
	case r.Because == "--fail-on-flaky":
		return fmt.Sprintf("the run ended %s: failing because of --fail-on-flaky (%s passed only on a retry)", status, termtext.Plural(r.Counts.Flaky, "test case"))
	case r.Because == "--fail-on-skipped":
		return fmt.Sprintf("the run ended %s: failing because of --fail-on-skipped (%s skipped or not run)", status, termtext.Plural(r.Counts.Skipped+r.Counts.NotRun, "test case"))
	case r.Counts.Failed+r.Counts.Errored > 0:
		return "the run ended " + status + "; its failures are " + r.Failures.String() + ", but testctl does not know that result"
	case len(r.Cases) == 0:
		return "the run ended " + status + " with no test cases"
	}
	return "the run ended " + status + " with no failed test case"
}

// firstLine is the first line of an error's text.
func firstLine(err error) string {
	if err == nil {
		return ""
	}
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
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

// Level is the annotation a test case of the run gets in a CI log: "error"
// for one that fails the gate ("warning" for a known failure under
// --fail-on new and a quarantined one), and for a skipped or unrun one when
// --fail-on-skipped failed the run; "warning" for one skipped or unrun that
// did not, and for a flaky one; "" for one that passed.
func (r Run) Level(c Case) string {
	switch c.Class {
	case Failed, Errored:
		if !c.FailsGate {
			return "warning"
		}
		return "error"
	case Skipped, NotRun:
		if r.Because == "--fail-on-skipped" {
			return "error"
		}
		return "warning"
	case Flaky:
		return "warning"
	}
	return ""
}

// Resumable reports whether the run may still be going on in the service
// when the wait ended, so that waiting again can give it a verdict: the
// wait stopped before it did (a timeout, a signal), or the service kept
// failing (exit 6) before the run was seen to end. A run that does not
// exist (5) or that the key may not read (4) is not.
func (r Run) Resumable() bool {
	if r.NotStarted {
		return false
	}
	return r.Stop != "" || r.Code == exitcode.Service && (r.Detail == nil || !Final(r.Detail.Status))
}
