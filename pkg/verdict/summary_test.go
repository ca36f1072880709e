package verdict

import (
	"errors"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func TestRunClass(t *testing.T) {
	retried := Record{ShortID: "r2", RetryLimit: 1,
		Detail:  completed("r2", api.ResultPassed, tc("r2-1", "B", api.StatusCompleted, api.ResultPassed)),
		Earlier: []Attempt{{ShortID: "r1", Detail: completed("r1", api.ResultFailed, tc("r1-1", "B", api.StatusCompleted, api.ResultFailed))}}}
	for _, c := range []struct {
		name string
		rec  Record
		o    Options
		want Class
	}{
		{"passed", Record{Detail: completed("r", api.ResultPassed)}, Options{}, Passed},
		{"skipped", Record{Detail: completed("r", api.ResultSkipped)}, Options{}, Skipped},
		{"skipped, --fail-on-skipped", Record{Detail: completed("r", api.ResultSkipped)}, Options{FailOnSkipped: true}, Failed},
		{"flaky", retried, Options{}, Flaky},
		{"flaky, --fail-on-flaky", retried, Options{FailOnFlaky: true}, Failed},
		{"failed", Record{Detail: completed("r", api.ResultFailed)}, Options{}, Failed},
		{"a result testctl does not know", Record{Detail: completed("r", "BLOCKED", tc("1", "a", api.StatusCompleted, api.ResultPassed))}, Options{}, Failed},
		{"no result", Record{Detail: &api.RunDetail{Status: api.StatusCompleted}}, Options{}, Failed},
		{"passed with a failed test case", Record{Detail: completed("r", api.ResultPassed, tc("1", "a", api.StatusCompleted, api.ResultFailed))}, Options{}, Failed},
		{"error", Record{Detail: &api.RunDetail{Status: api.StatusError}}, Options{}, Errored},
		{"cancelled", Record{Detail: &api.RunDetail{Status: api.StatusCancelled}}, Options{}, Errored},
		{"timed out", Record{Detail: &api.RunDetail{Status: api.StatusRunning}, Stop: TimedOut}, Options{}, NotRun},
		{"terminated before an answer", Record{Stop: Terminated}, Options{}, NotRun},
		{"not final, no stop", Record{Detail: &api.RunDetail{Status: api.StatusRunning}}, Options{}, NotRun},
		{"polling stopped", Record{Detail: &api.RunDetail{Status: api.StatusRunning}, Err: &api.HTTPError{StatusCode: 404}}, Options{}, Errored},
		{"never read", Record{}, Options{}, Errored},
		{"not started", NotStartedRecord(Plan{ShortID: "p"}, &api.HTTPError{StatusCode: 404}), Options{}, Errored},
		{"rerun refused", Record{Detail: completed("r", api.ResultFailed), RerunErr: errors.New("x")}, Options{}, Failed},
	} {
		r := Decide([]Record{c.rec}, c.o).Runs[0]
		if got := r.Mark(); got != c.want {
			t.Errorf("%s: class %q, want %q", c.name, got, c.want)
		}
		if r.Code != 0 && (r.Mark() == Passed || r.Mark() == Flaky || r.Mark() == Skipped) {
			t.Errorf("%s: exit %d but class %q", c.name, r.Code, r.Mark())
		}
	}
}

func TestSummaryClass(t *testing.T) {
	for _, c := range []struct {
		status, result string
		want           Class
	}{
		{api.StatusCompleted, api.ResultPassed, Passed},
		{api.StatusCompleted, api.ResultSkipped, Skipped},
		{api.StatusCompleted, api.ResultFailed, Failed},
		{api.StatusCompleted, "BLOCKED", Failed},
		{api.StatusCompleted, "", Failed},
		{api.StatusError, "", Errored},
		{api.StatusCancelled, api.ResultFailed, Errored},
		{api.StatusRunning, "", NotRun},
		{api.StatusInitiated, "", NotRun},
		{"PAUSED", "", NotRun},
		{"", "", NotRun},
	} {
		if got := SummaryClass(c.status, c.result); got != c.want {
			t.Errorf("SummaryClass(%q, %q) = %q, want %q", c.status, c.result, got, c.want)
		}
	}
	// A run the list shows ended as Decide would decide it alone.
	for _, status := range []string{api.StatusCompleted, api.StatusError, api.StatusCancelled} {
		for _, res := range []string{api.ResultPassed, api.ResultFailed, api.ResultSkipped, "BLOCKED", ""} {
			d := &api.RunDetail{Status: status}
			if res != "" {
				d.Result = strp(res)
			}
			if got, want := SummaryClass(status, res), Decide([]Record{{Detail: d}}, Options{}).Runs[0].Mark(); got != want {
				t.Errorf("%s %s: the run list's class %q, the verdict's %q", status, res, got, want)
			}
		}
	}
}
