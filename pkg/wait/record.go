package wait

import (
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// Record is one run as every report sees it once a wait has ended.
type Record struct {
	ShortID string
	URL     string
	Plan    Plan
	// Attempt counts the runs of the same test cases in one command, from 1
	// (a rerun of failed test cases is attempt 2); 0 is read as 1.
	Attempt int
	// StartedAt and FinishedAt are the service's, zero when it gave none.
	StartedAt, FinishedAt time.Time
	Detail                *api.RunDetail // nil when the run was never read
	// Earlier are the attempts --retry-failed made before this one, oldest
	// first (the run first waited for, then its reruns); RetryLimit is
	// --retry-failed. ShortID, URL and Detail are the last attempt's,
	// which gives the verdict.
	Earlier    []Attempt
	RetryLimit int
	// Pending says why the run had not finished, when the wait ended first
	// ("the wait timed out"); unfinished test cases are reported with it.
	Pending string
	Err     error // why polling stopped without a verdict (404, outage)
	// NotFoundYet: the service last answered 404 for a run this machine
	// had just started (within the not-visible grace).
	NotFoundYet bool
	Code        int // the run's exit code
	// FinishedAfter is how long the wait had run when the run ended;
	// AlreadyFinished: it had ended before the wait began. Both are zero
	// for a run not seen ending by a wait.
	FinishedAfter   time.Duration
	AlreadyFinished bool
	// NotStarted: the start of this plan (or of the test cases) failed for
	// good, so there is no run; Err says why.
	NotStarted bool
}

// NotStartedRecord is a start that failed for good, for the reports of the
// runs that did start: a JUnit reader or a step summary must not look
// green, or merely shorter, while the exit code says a start failed.
func NotStartedRecord(plan Plan, err error) Record {
	return Record{Plan: plan, NotStarted: true, Err: err, Code: cmdutil.ExitCodeOf(err)}
}

// Plan is what a run ran, named so that reports match it across builds: a
// run's short id changes every time, its plan does not.
type Plan struct {
	Name    string
	ShortID string
	// TestCases: the run was started from test case ids, not a plan.
	TestCases bool
}

// Title is the plan's name, else its short id, else "test cases" for a run
// of test case ids; "" when nothing is known.
func (p Plan) Title() string {
	switch {
	case p.Name != "":
		return p.Name
	case p.ShortID != "":
		return p.ShortID
	case p.TestCases:
		return "test cases"
	}
	return ""
}

// hasVerdict reports whether the wait ended for this run with an exit code
// (a verdict, a timeout, an error); a run only just started has none.
func (r Record) hasVerdict() bool {
	return r.Detail != nil || r.Err != nil || r.Pending != ""
}

// Finished reports whether the run reached a final status.
func (r Record) Finished() bool {
	return r.Detail != nil && api.IsTerminalStatus(r.Detail.Status)
}

// RecordsFromDetails wraps details that were read without a wait (run get).
func RecordsFromDetails(runs []*api.RunDetail, urls map[string]string, failOnSkipped bool) []Record {
	out := make([]Record, 0, len(runs))
	for _, d := range runs {
		if d == nil {
			continue
		}
		r := Record{ShortID: d.ShortID, URL: urls[d.ShortID], Detail: d, Code: verdictCode(d, failOnSkipped)}
		if !r.Finished() {
			r.Pending = "the report was written"
		}
		out = append(out, r)
	}
	return out
}

// details returns the details that were read, in the order of the runs.
func details(recs []Record) []*api.RunDetail {
	var out []*api.RunDetail
	for _, r := range recs {
		if r.Detail != nil {
			out = append(out, r.Detail)
		}
	}
	return out
}

// verdictCode maps a finished run to the contract's exit code.
func verdictCode(d *api.RunDetail, failOnSkipped bool) int {
	switch d.Status {
	case api.StatusError, api.StatusCancelled:
		return cmdutil.ExitRunError
	case api.StatusCompleted:
	default:
		return cmdutil.ExitTimeout // not final: only reached when the wait ended first
	}
	switch d.ResultOrEmpty() {
	case api.ResultPassed:
		return cmdutil.ExitOK
	case api.ResultSkipped:
		if failOnSkipped {
			return cmdutil.ExitFailed
		}
		return cmdutil.ExitOK
	}
	// FAILED, or a result this client does not know: a CI gate must not
	// let through what it cannot tell passed.
	return cmdutil.ExitFailed
}

// isTestCaseFailure reports whether a finished test case counts against
// the run: it failed, errored or was cancelled.
func isTestCaseFailure(tc api.RunTestCase) bool {
	switch {
	case tc.Status == api.StatusError, tc.Status == api.StatusCancelled:
		return true
	case tc.Status != api.StatusCompleted:
		return false
	}
	return tc.Result != api.ResultPassed && tc.Result != api.ResultSkipped
}

// caseOutcome is the word that says how a test case ended: its result, or
// its status when it has none (ERROR, CANCELLED, still RUNNING).
func caseOutcome(tc api.RunTestCase) string {
	if tc.Status == api.StatusCompleted && tc.Result != "" {
		return tc.Result
	}
	return tc.Status
}

// startedWhat names what a start was for: "plan NAME", or "the test cases".
func startedWhat(p Plan) string {
	if t := p.Title(); t != "" && !p.TestCases {
		return "plan " + t
	}
	return "the test cases"
}
