package verdict

import (
	"cmp"
	"slices"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

// Options are the flags that change a verdict.
type Options struct {
	FailOnSkipped bool
	FailOnFlaky   bool
	// PassWithNoTests lets through a run that ran no test case
	// (--pass-with-no-tests); without it such a run fails the gate. Set it
	// too for a detail that lists only the failed test cases: it cannot
	// tell a run that ran none.
	PassWithNoTests bool
	// FailOn is --fail-on ("" is any).
	FailOn FailOn
	// Baselines are the baseline runs by plan short id; nil without
	// --baseline. A plan of the verdict missing from it has no baseline:
	// every failure of it is new.
	Baselines map[string]*Baseline
	// PlanOf is the plan of a run whose record names none, by run short
	// id, as the run list gives it: the one identity of the run's plan
	// that the baseline and the quarantine entries with a plan both read;
	// never the plan the reports name (a page of the run list is no stable
	// name for a JUnit suite).
	PlanOf map[string]string
	// BaselineBranch is --baseline.
	BaselineBranch string
	// Quarantine is the quarantine file's entries; Now is the day their
	// dates are compared with.
	Quarantine []Quarantine
	Now        time.Time
}

// planOf is the one identity of a record's plan: its own, else the run
// list's.
func (o Options) planOf(r Record) Plan {
	p := r.Plan
	if p.ShortID == "" {
		p.ShortID = o.PlanOf[r.ShortID]
	}
	return p
}

// classified reports whether failures are told apart: a baseline or a
// quarantine file was given.
func (o Options) classified() bool { return o.BaselineBranch != "" || len(o.Quarantine) > 0 }

// Verdict is the decision every report renders.
type Verdict struct {
	Runs   []Run
	Counts Counts // over every run
	Code   int    // the command's exit code: the largest of the runs'
	// Classified: a baseline or a quarantine file was given, so the
	// reports tell new, known and quarantined failures apart (Failures
	// tallies them over every run). BaselineBranch is --baseline.
	Classified     bool
	Failures       FailureCounts
	BaselineBranch string
	// Stale are the quarantine entries that named no test case of any run.
	Stale []Quarantine
	// Unplaced are the entries with a plan that could not be applied to a
	// run whose plan is not known: neither applied nor stale.
	Unplaced []Unplaced
}

// Unplaced is a quarantine entry with a plan, and a run it may have named
// whose plan is not known.
type Unplaced struct {
	Entry      Quarantine
	RunShortID string
}

// Run is one record with what was decided of it: its Outcome, and the
// test cases that tell its story.
type Run struct {
	Record
	Outcome
	Cases  []Case
	Counts Counts
	// Baseline is the baseline run of its plan (--baseline), nil when none
	// was asked for or its plan is not known; Failures tallies its test
	// cases that did not pass by class.
	Baseline *Baseline
	Failures FailureCounts
	// unplaced are the quarantine entries (by index) with a plan that
	// named a test case of the run, whose plan is not known.
	unplaced []int
}

// Decide classifies every test case of every record and gives each run and
// the command their exit codes. It is pure: the same records give the same
// verdict.
func Decide(recs []Record, o Options) Verdict {
	v := Verdict{Classified: o.classified(), BaselineBranch: o.BaselineBranch}
	used := map[int]bool{}
	for _, r := range recs {
		run, matched := decideRun(r, o)
		v.Runs = append(v.Runs, run)
		v.Counts.add(run.Counts)
		v.Failures.add(run.Failures)
		v.Code = max(v.Code, run.Code)
		for k := range matched {
			used[k] = true
		}
		for i, k := range run.unplaced {
			if !slices.Contains(run.unplaced[:i], k) {
				v.Unplaced = append(v.Unplaced, Unplaced{Entry: o.Quarantine[k], RunShortID: run.ShortID})
			}
		}
	}
	// An entry is stale only when every run ended with its test cases:
	// one cut short may not have listed them all yet.
	whole := true
	for _, r := range recs {
		whole = whole && r.Finished()
	}
	for k, q := range o.Quarantine {
		if !used[k] && whole {
			v.Stale = append(v.Stale, q)
		}
	}
	return v
}

func decideRun(r Record, o Options) (Run, map[int]bool) {
	if r.Stop == "" && r.Err == nil && !r.NotStarted && r.Detail != nil && !Final(r.Detail.Status) {
		// Read, not waited for (run get --junit): nothing timed out.
		r.Stop = Unfinished
	}
	run := Run{Record: r, Cases: classify(r)}
	if o.BaselineBranch != "" {
		run.Baseline = o.Baselines[o.planOf(r).ShortID]
	}
	for _, c := range run.Cases {
		run.Counts.count(c.Class)
	}
	matched := classifyFailures(&run, o)
	result, code := outcome(r, run.Counts, run.Gating())
	run.Outcome = Outcome{Result: result, Class: runClass(r, result), Code: code}
	if run.OK() {
		switch {
		case !o.PassWithNoTests && len(run.Cases) == 0 && (run.Class == RunPassed || run.Class == RunSkipped):
			// An empty plan, every test case disabled: green would say
			// something was tested (Jest, Playwright fail it too).
			run.Code, run.Because = exitcode.Failed, NoTestCase
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
	return run, matched
}

// outcome is a run's result and code before the flags that fail passes.
// gating counts the test cases that did not pass and fail the gate: a run
// whose failures are all known (--fail-on new) or quarantined keeps its
// result (FAILED with code 0, PASSED or SKIPPED by their rules), unless it
// is one testctl does not know.
func outcome(r Record, n Counts, gating int) (string, int) {
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
	case gating > 0:
		return api.ResultFailed, exitcode.Failed
	case n.Failed+n.Errored > 0 && last == api.ResultFailed:
		// Every failure is known (--fail-on new) or quarantined: the
		// run is FAILED and the gate lets it through. A run the service
		// says PASSED or SKIPPED goes on to their rules below.
		return api.ResultFailed, exitcode.OK
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
		// Failures the gate excuses (known, quarantined) ran: they are
		// not skips.
		if n.Passed+n.Flaky+n.Failed+n.Errored == 0 || last == api.ResultSkipped {
			return api.ResultSkipped, exitcode.OK
		}
		return api.ResultPassed, exitcode.OK
	}
	return last, exitcode.OK
}

// stopCode is the code of a wait interrupted or terminated before a run
// ended; one that timed out, or a report of an unfinished run, gives 7.
var stopCode = map[Stop]int{Interrupted: exitcode.Interrupted, Terminated: exitcode.Terminated}
