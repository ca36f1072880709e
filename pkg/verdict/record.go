// Package verdict decides, in one small pure place, what every report of a
// wait says: how each test case ended across the attempts of
// --retry-failed, each run's verdict and exit code, and the command's.
// Reports (the terminal summary, JUnit, the step summary, annotations,
// outputs, the HTML file) render a Verdict; none decides again.
package verdict

import (
	"cmp"
	"slices"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// Record is one run as a wait left it: what every attempt answered last,
// and how the wait ended for it. It is the input of Decide.
type Record struct {
	ShortID string // the last attempt's
	URL     string
	Plan    Plan
	// Detail is the last attempt's latest answer, nil when it was never read.
	Detail *api.RunDetail
	// Earlier are the attempts --retry-failed made before the last one,
	// oldest first; RetryLimit is --retry-failed.
	Earlier    []Attempt
	RetryLimit int
	// StartedAt and FinishedAt are the service's, zero when it gave none.
	StartedAt, FinishedAt time.Time
	// Stop says how the wait ended before the run did; "" when it did not.
	Stop Stop
	// Err is why polling stopped without a verdict (404, an outage); for
	// NotStarted, why the start failed.
	Err error
	// NotFoundYet: the service last answered 404 for a run this machine had
	// just started (within the not-visible grace).
	NotFoundYet bool
	// NotStarted: the start of this plan (or of the test cases) failed for
	// good, so there is no run to wait on. MaybeStarted: its request was in
	// flight when a signal came and its answer never did, so a run may have
	// been created (Err says where to look): never "not started".
	NotStarted   bool
	MaybeStarted bool
	// Look is the command that lists what a start that may have started
	// a run created ("testctl run list --plan … --branch … --commit …").
	Look string
	// RerunErr is why the last rerun of --retry-failed could not start: a
	// refusal is a warning (the run's own result is the gate's code); a
	// service that failed, which may have started a rerun, is exit 6.
	RerunErr error
	// FinishedAfter is how long the wait had run when the run ended;
	// AlreadyFinished: it had ended before the wait began.
	FinishedAfter   time.Duration
	AlreadyFinished bool
	// CIRetry is what a retried CI job did with the run of this plan its
	// earlier attempt started (--ci-retry); nil when the job is no retry.
	CIRetry *CIRetry
}

// The ways a retried CI job takes up the run its earlier attempt started.
const (
	CIReused      = "reused"       // it passed: nothing started, its verdict decided again
	CIRerunFailed = "rerun-failed" // it failed: its failed test cases rerun
	CIWaited      = "waited"       // it was still going: waited on
	CINew         = "new"          // none to take up (Why says why): a new run
)

// CIRetry is what a retried CI job did with the run of a plan its earlier
// attempt started.
type CIRetry struct {
	Action string // CIReused, CIRerunFailed, CIWaited or CINew
	// Run is the earlier attempt's run taken up (the last of its chain);
	// Attempt is the CI attempt that started it, 0 when the CI numbers
	// none (GitLab).
	Run     string
	Attempt int
	// Why is, for CINew, why no run was taken up.
	Why string
	// Inherited is how many runs of the record the earlier CI attempt
	// made: the first Inherited of its attempts (with the last one when
	// it was reused or waited on). They do not count against
	// --retry-failed.
	Inherited int
}

// OwnRetry is which --retry-failed retry of this job attempt index i of
// the record is (1 for its first rerun): 0 for the rerun a retried CI job
// made of its earlier attempt's failures, -1 for a run that earlier
// attempt made.
func (r Record) OwnRetry(i int) int {
	ci := r.CIRetry
	switch {
	case ci == nil:
		return i
	case i < ci.Inherited:
		return -1
	case ci.Action == CIRerunFailed:
		return i - ci.Inherited
	}
	return i - ci.Inherited + 1
}

// Stop is how a wait ended before a run did.
type Stop string

const (
	TimedOut    Stop = "TIMED_OUT"
	Interrupted Stop = "INTERRUPTED"
	Terminated  Stop = "TERMINATED"
	// Unfinished: a report was asked for (run report) before the run ended.
	Unfinished Stop = "NOT_FINISHED"
)

// Why is the stop in words: "the wait timed out".
func (s Stop) Why() string { return stopWhy[s] }

var stopWhy = map[Stop]string{
	Interrupted: "the wait was interrupted", Terminated: "the wait was terminated",
	TimedOut: "the wait timed out", Unfinished: "the report was made",
}

// Attempt is one run of a --retry-failed sequence: the original run, then
// each rerun of its failed test cases.
type Attempt struct {
	ShortID string
	URL     string
	Detail  *api.RunDetail // nil when it was never read
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
	if p.TestCases {
		return cmp.Or(p.Name, p.ShortID, "test cases")
	}
	return cmp.Or(p.Name, p.ShortID)
}

// What names what a start was for: "plan NAME", or "the test cases".
func (p Plan) What() string {
	if t := p.Title(); t != "" && !p.TestCases {
		return "plan " + t
	}
	return "the test cases"
}

// NotStartedRecord is a start that failed for good, for the reports of the
// runs that did start: a JUnit reader or a step summary must not look
// green, or merely shorter, while the exit code says a start failed.
func NotStartedRecord(plan Plan, err error) Record {
	return Record{Plan: plan, NotStarted: true, Err: err}
}

// Attempts are every run of the record, oldest first, the last one's own last.
func (r Record) Attempts() []Attempt {
	return slices.Concat(r.Earlier, []Attempt{{ShortID: r.ShortID, URL: r.URL, Detail: r.Detail}})
}

// Finished reports whether the last attempt reached a final status.
func (r Record) Finished() bool {
	return r.Detail != nil && api.IsTerminalStatus(r.Detail.Status)
}
