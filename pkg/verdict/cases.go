package verdict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/api"
)

// Class is what a test case's outcome means for the verdict.
type Class string

const (
	Passed  Class = "passed"
	Failed  Class = "failed"
	Errored Class = "errored" // ended ERROR or CANCELLED, or unfinished in a run that ended
	Skipped Class = "skipped"
	Flaky   Class = "flaky"   // failed in an attempt, passed in a later one
	NotRun  Class = "not run" // unfinished when the wait ended
)

// DidNotPass reports whether the class counts against a run.
func (c Class) DidNotPass() bool { return c == Failed || c == Errored }

// Case is one test case with its last run across the attempts.
type Case struct {
	api.RunTestCase // its last run
	Class           Class
	// Attempt is the attempt it last ran in, from 1; RunShortID and RunURL
	// are that attempt's run.
	Attempt    int
	RunShortID string
	RunURL     string
	// For a flaky case: its first failed run, the run that attempt was, and
	// the retry it passed on (from 1).
	FirstFailure     *api.RunTestCase
	FailedRunShortID string
	Retry            int
	// Failures are its failed runs in the attempts before its last, oldest
	// first (what JUnit calls flaky or rerun failures).
	Failures []api.RunTestCase
	// Failure is the class of one that did not pass (new, known,
	// quarantined), "" for any other; FailsGate says whether it fails the
	// gate. Quarantine is the entry of the quarantine file that names it
	// (whether it passed or not), QuarantineExpired that the entry's date
	// has passed: its failure fails the gate again.
	Failure           Failure
	FailsGate         bool
	Quarantine        *Quarantine
	QuarantineExpired bool
	// failedBefore is its last failed run in an earlier attempt, for one
	// that has not passed since: if a later attempt passes, it is flaky.
	failedBefore *Case
}

// CaseWord is the word that says how a test case ended: its result, or its
// status when it has none (ERROR, CANCELLED, still RUNNING).
func CaseWord(tc api.RunTestCase) string {
	if tc.Status == api.StatusCompleted && tc.Result != "" {
		return tc.Result
	}
	return tc.Status
}

// classify merges the attempts: a rerun gives its test cases new run test
// case ids, so they are matched by name; those a rerun left alone keep the
// run they last had.
func classify(r Record) []Case {
	var out []Case
	at := map[string]int{}
	for i, a := range r.Attempts() {
		if a.Detail == nil {
			continue
		}
		finished := api.IsTerminalStatus(a.Detail.Status)
		nth := map[string]int{} // test cases of one run may share a name
		for _, tc := range a.Detail.RunTestCases {
			c := Case{RunTestCase: tc, Attempt: i + 1, RunShortID: a.ShortID, RunURL: a.URL, Class: ClassOf(tc, finished)}
			key := fmt.Sprintf("%s\x00%d", tc.Name, nth[tc.Name])
			nth[tc.Name]++
			j, seen := at[key]
			if !seen {
				at[key] = len(out)
				out = append(out, c)
				continue
			}
			prev := out[j]
			c.Failures = prev.Failures
			if prev.Class.DidNotPass() {
				c.Failures = append(c.Failures, prev.RunTestCase)
			}
			switch {
			case c.Class == Passed && prev.Class.DidNotPass():
				c.Class, c.FirstFailure, c.FailedRunShortID, c.Retry = Flaky, new(prev.RunTestCase), prev.RunShortID, i
			case c.Class == Passed && prev.Class == Flaky:
				c.Class, c.FirstFailure, c.FailedRunShortID, c.Retry = Flaky, prev.FirstFailure, prev.FailedRunShortID, prev.Retry
			case c.Class == Passed && prev.failedBefore != nil:
				// Failed, then skipped (or not run) in a retry, then
				// passed: it failed and then passed, so it is flaky.
				f := prev.failedBefore
				c.Class, c.FirstFailure, c.FailedRunShortID, c.Retry = Flaky, new(f.RunTestCase), f.RunShortID, i
			}
			if c.Class != Flaky && c.Class != Passed {
				c.failedBefore = prev.failedBefore
				if prev.Class.DidNotPass() {
					c.failedBefore = &prev
				}
			}
			out[j] = c
		}
	}
	return out
}

// ClassOf is what a test case's run means, within a run that has finished or not.
func ClassOf(tc api.RunTestCase, runFinished bool) Class {
	switch {
	case !api.IsTerminalStatus(tc.Status) && runFinished:
		return Errored
	case !api.IsTerminalStatus(tc.Status):
		return NotRun
	case tc.Status == api.StatusError || tc.Status == api.StatusCancelled:
		return Errored
	case tc.Status != api.StatusCompleted:
		return Failed
	}
	switch tc.Result {
	case api.ResultPassed:
		return Passed
	case api.ResultSkipped:
		return Skipped
	}
	return Failed
}

// Counts tallies test cases by class.
type Counts struct {
	Passed, Failed, Errored, Skipped, Flaky, NotRun int
}

func (n *Counts) count(c Class) {
	switch c {
	case Passed:
		n.Passed++
	case Failed:
		n.Failed++
	case Errored:
		n.Errored++
	case Skipped:
		n.Skipped++
	case Flaky:
		n.Flaky++
	case NotRun:
		n.NotRun++
	}
}

func (n *Counts) add(o Counts) {
	n.Passed += o.Passed
	n.Failed += o.Failed
	n.Errored += o.Errored
	n.Skipped += o.Skipped
	n.Flaky += o.Flaky
	n.NotRun += o.NotRun
}

// DidNotPass are the run's test cases that count against it, failures
// first, then errors: the order every report lists them in.
func (r Run) DidNotPass() []Case { return append(r.casesOf(Failed), r.casesOf(Errored)...) }

// Flaky are the run's flaky test cases.
func (r Run) Flaky() []Case { return r.casesOf(Flaky) }

// casesOf are the run's test cases of one class, in their order.
func (r Run) casesOf(class Class) []Case {
	return slices.DeleteFunc(slices.Clone(r.Cases), func(c Case) bool { return c.Class != class })
}

// String lists the non-zero counts: "3 passed · 1 failed · 1 flaky".
func (n Counts) String() string {
	return JoinCounts("no test cases", []int{n.Passed, n.Flaky, n.Failed, n.Errored, n.Skipped, n.NotRun},
		"passed", "flaky", "failed", "errored", "skipped", "not run")
}

// JoinCounts lists the non-zero counts, each followed by its word, joined
// by " · "; none when every count is zero. Every tally of test cases reads
// the same way, whatever it counts.
func JoinCounts(none string, counts []int, words ...string) string {
	var parts []string
	for i, n := range counts {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, words[i]))
		}
	}
	if len(parts) == 0 {
		return none
	}
	return strings.Join(parts, " · ")
}
