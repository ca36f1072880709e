package report

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/verdict"
)

// colourStyles are the styles of a terminal with colour on.
func colourStyles() *iostreams.Styles {
	ios, _, _, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	return ios.Styles()
}

// endedWith is a run that ended COMPLETED with a result.
func endedWith(result string, cases ...api.RunTestCase) *api.RunDetail {
	return &api.RunDetail{ShortID: "r", Status: api.StatusCompleted, Result: strp(result), RunTestCases: cases}
}

func testCase(id, name, status, result string) api.RunTestCase {
	return api.RunTestCase{ShortID: id, Name: name, Status: status, Result: result}
}

func TestColorStatus(t *testing.T) {
	st := colourStyles()
	for in, want := range map[string]func(string) string{
		"PASSED": st.Success, "COMPLETED": st.Success,
		"FAILED": st.Failure, "ERROR": st.Failure, "CANCELLED": st.Failure,
		"SKIPPED": st.Warning, "RUNNING": st.Warning, "INITIATED": st.Warning,
	} {
		if got := ColorStatus(st, in); got != want(in) {
			t.Errorf("ColorStatus(%q) = %q, want %q", in, got, want(in))
		}
	}
	if got := ColorStatus(st, "WEIRD"); got != "WEIRD" {
		t.Errorf("an unknown status must be unchanged, got %q", got)
	}
}

// A run's colour is its code's: a result testctl does not know is never
// green, and a run whose failures the gate excuses is yellow.
func TestRunStyleFollowsTheCode(t *testing.T) {
	st := colourStyles()
	passed := testCase("1", "a", api.StatusCompleted, api.ResultPassed)
	skipped := testCase("1", "a", api.StatusCompleted, api.ResultSkipped)
	failed := testCase("1", "a", api.StatusCompleted, api.ResultFailed)
	quarantined := verdict.Options{Quarantine: []verdict.Quarantine{{Name: "a", Until: time.Now().AddDate(1, 0, 0)}}, Now: time.Now()}
	for _, c := range []struct {
		name string
		run  verdict.Run
		want func(string) string
	}{
		{"passed", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultPassed, passed)}}, verdict.Options{}).Runs[0], st.Success},
		{"passed with no test case", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultPassed)}}, verdict.Options{}).Runs[0], st.Failure},
		{"a result testctl does not know", verdict.Decide([]verdict.Record{{Detail: endedWith("BLOCKED", passed)}}, verdict.Options{}).Runs[0], st.Failure},
		{"skipped", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultSkipped, skipped)}}, verdict.Options{}).Runs[0], st.Warning},
		{"a skipped test case", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultPassed, skipped)}}, verdict.Options{}).Runs[0], st.Warning},
		{"failures the gate excuses", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultFailed, failed)}}, quarantined).Runs[0], st.Warning},
	} {
		if got := RunStyle(st, c.run)("x"); got != c.want("x") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want("x"))
		}
	}
}

// A run that fails because of --fail-on-skipped says so, even when a
// failure the gate excuses is among its test cases.
func TestWhyFailedNamesTheFlagBeforeExcusedFailures(t *testing.T) {
	rec := verdict.Record{Plan: verdict.Plan{ShortID: "p"}, Detail: endedWith(api.ResultSkipped,
		testCase("1", "Pay", api.StatusCompleted, api.ResultFailed), testCase("2", "Mail", api.StatusCompleted, api.ResultSkipped))}
	o := verdict.Options{FailOnSkipped: true, Quarantine: []verdict.Quarantine{{Name: "Pay", Until: time.Now().AddDate(1, 0, 0)}}, Now: time.Now()}
	r := verdict.Decide([]verdict.Record{rec}, o).Runs[0]
	if r.Code != exitcode.Failed || !strings.Contains(whyFailed(r), "--fail-on-skipped") {
		t.Errorf("exit %d, why %q: want 1 because of --fail-on-skipped", r.Code, whyFailed(r))
	}
}

// Only what fails the gate is an error: a known failure under --fail-on
// new is a warning.
func TestAnnotationLevelFollowsTheGate(t *testing.T) {
	rec := verdict.Record{ShortID: "r2", Plan: verdict.Plan{ShortID: "p", Name: "Checkout"}, Detail: endedWith(api.ResultFailed,
		testCase("1", "Login", api.StatusCompleted, api.ResultFailed), testCase("2", "Pay", api.StatusCompleted, api.ResultFailed),
		testCase("3", "Search", api.StatusCompleted, api.ResultPassed))}
	base := map[string]*verdict.Baseline{"p": {Branch: "main", RunShortID: "r1", Cases: []api.RunTestCase{testCase("b2", "Pay", api.StatusCompleted, api.ResultFailed)}}}
	r := verdict.Decide([]verdict.Record{rec}, verdict.Options{BaselineBranch: "main", Baselines: base, FailOn: verdict.FailOnNew}).Runs[0]
	for _, c := range r.Cases {
		want := map[string]string{"Login": "error", "Pay": "warning", "Search": ""}[c.Name]
		if got := annotationLevel(r, c); got != want {
			t.Errorf("%s: level %q, want %q", c.Name, got, want)
		}
	}
}
