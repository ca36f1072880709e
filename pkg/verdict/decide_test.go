package verdict

import (
	"errors"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

func strp(s string) *string { return &s }

func tc(short, name, status, result string) api.RunTestCase {
	return api.RunTestCase{ShortID: short, Name: name, Status: status, Result: result}
}

func completed(short, result string, cases ...api.RunTestCase) *api.RunDetail {
	return &api.RunDetail{ShortID: short, Status: api.StatusCompleted, Result: strp(result), RunTestCases: cases}
}

func TestRunCodes(t *testing.T) {
	for _, c := range []struct {
		name string
		rec  Record
		o    Options
		want int
	}{
		{"passed", Record{Detail: completed("r", api.ResultPassed, tc("1", "a", api.StatusCompleted, api.ResultPassed))}, Options{}, 0},
		{"skipped", Record{Detail: completed("r", api.ResultSkipped, tc("1", "a", api.StatusCompleted, api.ResultSkipped))}, Options{}, 0},
		{"skipped, --fail-on-skipped", Record{Detail: completed("r", api.ResultSkipped)}, Options{FailOnSkipped: true}, exitcode.Failed},
		{"passed with no test case", Record{Detail: completed("r", api.ResultPassed)}, Options{}, exitcode.Failed},
		{"skipped with no test case", Record{Detail: completed("r", api.ResultSkipped)}, Options{}, exitcode.Failed},
		{"passed with no test case, --pass-with-no-tests", Record{Detail: completed("r", api.ResultPassed)}, Options{PassWithNoTests: true}, 0},
		{"skipped with no test case, --pass-with-no-tests", Record{Detail: completed("r", api.ResultSkipped)}, Options{PassWithNoTests: true}, 0},
		{"skipped with no test case, --pass-with-no-tests --fail-on-skipped", Record{Detail: completed("r", api.ResultSkipped)},
			Options{PassWithNoTests: true, FailOnSkipped: true}, exitcode.Failed},
		{"error with no test case", Record{Detail: &api.RunDetail{Status: api.StatusError}}, Options{}, exitcode.RunError},
		{"failed", Record{Detail: completed("r", api.ResultFailed)}, Options{}, exitcode.Failed},
		{"unknown result", Record{Detail: completed("r", "FLAKY")}, Options{}, exitcode.Failed},
		{"no result", Record{Detail: &api.RunDetail{Status: api.StatusCompleted}}, Options{}, exitcode.Failed},
		{"error", Record{Detail: &api.RunDetail{Status: api.StatusError}}, Options{}, exitcode.RunError},
		{"cancelled", Record{Detail: &api.RunDetail{Status: api.StatusCancelled}}, Options{}, exitcode.RunError},
		{"timed out", Record{Detail: &api.RunDetail{Status: api.StatusRunning}, Stop: TimedOut}, Options{}, exitcode.Timeout},
		{"terminated", Record{Stop: Terminated}, Options{}, exitcode.Terminated},
		{"not found", Record{Err: &api.HTTPError{StatusCode: 404}}, Options{}, exitcode.NotFound},
		{"not started", NotStartedRecord(Plan{ShortID: "p"}, &api.HTTPError{StatusCode: 400}), Options{}, exitcode.Usage},
		{"passed run with a failed test case", Record{Detail: completed("r", api.ResultPassed,
			tc("1", "a", api.StatusCompleted, api.ResultFailed))}, Options{}, exitcode.Failed},
		{"rerun refused", Record{Detail: completed("r", api.ResultFailed), RerunErr: errors.New("x")}, Options{}, exitcode.Failed},
		{"rerun refused with 404", Record{Detail: completed("r", api.ResultFailed), RerunErr: &api.HTTPError{StatusCode: 404}}, Options{}, exitcode.Failed},
		{"rerun refused with 400", Record{Detail: completed("r", api.ResultFailed), RerunErr: &api.HTTPError{StatusCode: 400}}, Options{}, exitcode.Failed},
		{"last attempt FAILED though its test cases passed", Record{ShortID: "r2", Detail: completed("r2", api.ResultFailed,
			tc("2", "Checkout", api.StatusCompleted, api.ResultPassed)), RetryLimit: 1, Earlier: []Attempt{{ShortID: "r1",
			Detail: completed("r1", api.ResultFailed, tc("1", "Checkout", api.StatusCompleted, api.ResultFailed))}}}, Options{}, exitcode.Failed},
		{"last attempt BLOCKED though its test cases passed", Record{ShortID: "r2", Detail: completed("r2", "BLOCKED",
			tc("2", "Checkout", api.StatusCompleted, api.ResultPassed)), RetryLimit: 1, Earlier: []Attempt{{ShortID: "r1",
			Detail: completed("r1", api.ResultFailed, tc("1", "Checkout", api.StatusCompleted, api.ResultFailed))}}}, Options{}, exitcode.Failed},
		{"last attempt without a result", Record{ShortID: "r2", Detail: &api.RunDetail{Status: api.StatusCompleted, RunTestCases: []api.RunTestCase{
			tc("2", "Checkout", api.StatusCompleted, api.ResultPassed)}}, RetryLimit: 1, Earlier: []Attempt{{ShortID: "r1",
			Detail: completed("r1", api.ResultFailed, tc("1", "Checkout", api.StatusCompleted, api.ResultFailed))}}}, Options{}, exitcode.Failed},
	} {
		if got := Decide([]Record{c.rec}, c.o).Code; got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}

// The bug of --retry-failed: B fails, C waits for B and is skipped; the
// rerun runs B alone, which passes. C never ran: the verdict is over every
// test case, so --fail-on-skipped fails the run, and B is flaky.
func TestRetryVerdictIsOverEveryTestCase(t *testing.T) {
	first := completed("r1", api.ResultFailed, tc("r1-1", "A", api.StatusCompleted, api.ResultPassed),
		tc("r1-2", "B", api.StatusCompleted, api.ResultFailed), tc("r1-3", "C", api.StatusCompleted, api.ResultSkipped))
	rerun := completed("r2", api.ResultPassed, tc("r2-1", "B", api.StatusCompleted, api.ResultPassed))
	rec := Record{ShortID: "r2", Detail: rerun, RetryLimit: 1, Earlier: []Attempt{{ShortID: "r1", Detail: first}}}

	v := Decide([]Record{rec}, Options{FailOnSkipped: true})
	r := v.Runs[0]
	if v.Code != exitcode.Failed || r.Because != "--fail-on-skipped" {
		t.Errorf("exit %d (%q), want 1 because of --fail-on-skipped", v.Code, r.Because)
	}
	if r.Counts != (Counts{Passed: 1, Flaky: 1, Skipped: 1}) {
		t.Errorf("counts %+v", r.Counts)
	}
	byName := map[string]Case{}
	for _, c := range r.Cases {
		byName[c.Name] = c
	}
	if c := byName["B"]; c.Class != Flaky || c.Attempt != 2 || c.RunShortID != "r2" || c.FailedRunShortID != "r1" || c.Retry != 1 {
		t.Errorf("B: %+v", c)
	}
	if c := byName["C"]; c.Class != Skipped || c.Attempt != 1 || c.RunShortID != "r1" {
		t.Errorf("C keeps its first result, from run r1: %+v", c)
	}
	if got := Decide([]Record{rec}, Options{}).Code; got != 0 {
		t.Errorf("without --fail-on-skipped: exit %d, want 0 (with a warning)", got)
	}
	if got := Decide([]Record{rec}, Options{FailOnFlaky: true}).Code; got != exitcode.Failed {
		t.Errorf("--fail-on-flaky: exit %d, want 1", got)
	}
}

// Test cases of one run may share a name: each is its own.
func TestSameNameInOneRunStaysTwo(t *testing.T) {
	d := completed("r", api.ResultFailed, tc("1", "x", api.StatusCompleted, api.ResultFailed), tc("2", "x", api.StatusCompleted, api.ResultPassed))
	if r := Decide([]Record{{Detail: d}}, Options{}).Runs[0]; len(r.Cases) != 2 || r.Counts.Failed != 1 || r.Counts.Passed != 1 {
		t.Errorf("%+v", r.Counts)
	}
}

// Failed, then skipped in a retry, then passed: it failed and then passed,
// so it is flaky (found by the property test of pkg/report).
func TestFailedSkippedPassedIsFlaky(t *testing.T) {
	rec := Record{ShortID: "r3", RetryLimit: 2, Detail: completed("r3", api.ResultPassed, tc("3", "B", api.StatusCompleted, api.ResultPassed)),
		Earlier: []Attempt{
			{ShortID: "r1", Detail: completed("r1", api.ResultFailed, tc("1", "B", api.StatusError, ""))},
			{ShortID: "r2", Detail: completed("r2", api.ResultSkipped, tc("2", "B", api.StatusCompleted, api.ResultSkipped))},
		}}
	c := Decide([]Record{rec}, Options{}).Runs[0].Cases[0]
	if c.Class != Flaky || c.FailedRunShortID != "r1" || c.Retry != 2 || c.FirstFailure == nil || c.FirstFailure.ShortID != "1" {
		t.Errorf("B: %+v", c)
	}
	if got := Decide([]Record{rec}, Options{FailOnFlaky: true}).Code; got != exitcode.Failed {
		t.Errorf("--fail-on-flaky: exit %d", got)
	}
}

// A run that ran no test case fails the gate, and its outcome says why,
// whatever the service called it; its result stays the service's.
func TestNoTestCaseSaysWhy(t *testing.T) {
	for _, result := range []string{api.ResultPassed, api.ResultSkipped} {
		r := Decide([]Record{{ShortID: "r", Detail: completed("r", result)}}, Options{}).Runs[0]
		if r.Code != exitcode.Failed || r.Because != NoTestCase || r.Result != result || r.OK() {
			t.Errorf("%s: %+v, want exit 1 because it %s", result, r.Outcome, NoTestCase)
		}
		if r := Decide([]Record{{ShortID: "r", Detail: completed("r", result)}}, Options{PassWithNoTests: true}).Runs[0]; !r.OK() || r.Because != "" {
			t.Errorf("%s with --pass-with-no-tests: %+v", result, r.Outcome)
		}
	}
}
