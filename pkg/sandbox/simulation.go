package sandbox

import (
	"cmp"
	"math"
	"slices"

	"github.com/testctl/testctl/pkg/api"
)

// The simulation keeps no goroutines and no timers: a run fixes its whole
// timeline when it starts, and every request reads the state the timeline
// gives at the sandbox time of that request. That is what lets a fake clock
// drive it and makes a replay with the same seed and clock identical.

// caseRun is one test case within one run, with its timeline (sandbox
// seconds after the run started) and its final outcome.
type caseRun struct {
	tc             *testCase
	start, end     float64
	status, result string
	title, thought string
	issues         []string
	story          string // what the outcome left in the telemetry (story*)
}

// run is a run started in this process or generated as history.
type run struct {
	shortID, id, legacyID string
	created               float64 // sandbox seconds since the server started; negative for history
	history               bool    // generated history: always in its final state
	plan                  *plan   // nil for a run of test case ids
	testCaseIDs           []string
	trigger               string
	branch, commit        string
	apps                  []string
	cases                 []caseRun
	status, result        string // final
	// endsAfter is how long after its last test case the run ends
	// (Options.RunEndDelay), in sandbox seconds.
	endsAfter float64
}

// elapsed is how long the run has been going at sandbox time now.
func (r *run) elapsed(now float64) float64 {
	if r.history {
		return math.Inf(1)
	}
	return now - r.created
}

// stateAt gives a test case's status and result e seconds into its run.
// Cases that have not started are INITIATED (queued), as the run is.
func (c *caseRun) stateAt(e float64) (status, result string) {
	switch {
	case e >= c.end:
		return c.status, c.result
	case e >= c.start:
		return api.StatusRunning, ""
	default:
		return api.StatusInitiated, ""
	}
}

// final reports whether the case has reached its outcome e seconds in.
func (c *caseRun) final(e float64) bool { return e >= c.end }

// span returns when the first test case starts and the run ends: when its
// last test case does, and endsAfter later.
func (r *run) span() (first, last float64) {
	first, last = math.Inf(1), 0
	for _, c := range r.cases {
		first = math.Min(first, c.start)
		last = math.Max(last, c.end)
	}
	if len(r.cases) == 0 {
		first = 0
	}
	return first, last + r.endsAfter
}

// stateAt gives the run's status and result e seconds after it started.
func (r *run) stateAt(e float64) (status string, result *string) {
	first, last := r.span()
	switch {
	case e < first:
		return api.StatusInitiated, nil
	case e < last:
		return api.StatusRunning, nil
	}
	if r.result == "" {
		return r.status, nil
	}
	return r.status, new(r.result)
}

// completed is a test case that ran from start to end and passed or
// failed, with its own text, issues and failure story.
func completed(tc *testCase, start, end float64, failed bool) caseRun {
	c := caseRun{tc: tc, start: start, end: end, status: api.StatusCompleted, result: api.ResultPassed,
		title: tc.PassTitle, thought: tc.PassThought}
	if failed {
		c.result, c.title, c.thought, c.issues, c.story = api.ResultFailed, tc.FailTitle, tc.FailThought, tc.Issues, tc.FailStory
	}
	return c
}

// layOut fixes r's timeline and final outcome: the plan's timeline, or
// the test case ids scheduled (a rerun of some test cases of a plan keeps
// the plan it belongs to). Timelines are never changed, so runs share them.
func (r *run) layOut(lookup func(string) *testCase) {
	if r.testCaseIDs == nil {
		r.cases = r.plan.Cases
	} else {
		r.cases = scheduleTestCases(r.testCaseIDs, lookup)
	}
	r.status, r.result = verdict(r.cases)
}

// scheduleTestCases lays out a run of test case ids under the dependency
// rules of service-api.md section 3. Dependencies that were not listed are
// added to the run (before their dependents) because a dependent cannot be
// judged without them; so testCount may exceed the number of ids given.
// Test cases start staggered by half a second; a dependent starts when its
// dependencies have ended. A wait-for dependency that did not end PASSED
// means the dependent does not run: it ends COMPLETED/SKIPPED with a title
// saying why. A resume-from dependency that did not run leaves no browser
// session to resume, so its dependent is skipped too; one that ran and
// failed is still resumed from, as the spec only forbids the wait-for case.
func scheduleTestCases(ids []string, lookup func(string) *testCase) []caseRun {
	var order []*testCase
	seen := map[string]bool{}
	var visit func(id string)
	visit = func(id string) {
		if id == "" || seen[id] {
			return
		}
		seen[id] = true
		tc := lookup(id)
		if tc == nil {
			return
		}
		visit(tc.ResumeFrom)
		for _, d := range tc.WaitFor {
			visit(d)
		}
		order = append(order, tc)
	}
	for _, id := range ids {
		visit(id)
	}

	out := make([]caseRun, 0, len(order))
	at := map[string]int{}
	for i, tc := range order {
		ready := 1 + 0.5*float64(i)
		var blockTitle, blockThought string
		for _, d := range tc.WaitFor {
			dep := out[at[d]]
			ready = math.Max(ready, dep.end)
			if blockTitle == "" && (dep.status != api.StatusCompleted || dep.result != api.ResultPassed) {
				blockTitle = skippedByDependencyTitle(dep.tc.Name)
				blockThought = skippedByDependencyThought(dep.tc.Name, cmp.Or(dep.result, dep.status))
			}
		}
		if tc.ResumeFrom != "" {
			dep := out[at[tc.ResumeFrom]]
			ready = math.Max(ready, dep.end)
			if blockTitle == "" && (dep.result == api.ResultSkipped || dep.status == api.StatusCancelled) {
				blockTitle = "Not run: resumes the browser session of \"" + dep.tc.Name + "\", which did not run"
				blockThought = "A resume-from test case continues its dependency's browser session; \"" +
					dep.tc.Name + "\" did not run, so there was no session to continue."
			}
		}
		c := completed(tc, ready, ready+tc.Duration, tc.Fails)
		if blockTitle != "" {
			c = caseRun{tc: tc, start: ready, end: ready, status: api.StatusCompleted, result: api.ResultSkipped,
				title: blockTitle, thought: blockThought}
		}
		at[tc.ID] = len(out)
		out = append(out, c)
	}
	return out
}

// verdict derives a run's final status and result from its test cases: any
// error makes the run ERROR, any cancellation CANCELLED, any failure FAILED,
// all skipped SKIPPED, otherwise PASSED.
func verdict(cases []caseRun) (status, result string) {
	has := func(f func(caseRun) bool) bool { return slices.ContainsFunc(cases, f) }
	switch {
	case has(func(c caseRun) bool { return c.status == api.StatusError }):
		return api.StatusError, ""
	case has(func(c caseRun) bool { return c.status == api.StatusCancelled }):
		return api.StatusCancelled, ""
	case has(func(c caseRun) bool { return c.result == api.ResultFailed }):
		return api.StatusCompleted, api.ResultFailed
	case len(cases) > 0 && !has(func(c caseRun) bool { return c.result != api.ResultSkipped }):
		return api.StatusCompleted, api.ResultSkipped
	}
	return api.StatusCompleted, api.ResultPassed
}
