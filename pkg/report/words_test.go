package report

import (
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
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
	passed := api.RunTestCase{ShortID: "1", Name: "a", Status: api.StatusCompleted, Result: api.ResultPassed}
	skipped := api.RunTestCase{ShortID: "1", Name: "a", Status: api.StatusCompleted, Result: api.ResultSkipped}
	failed := api.RunTestCase{ShortID: "1", Name: "a", Status: api.StatusCompleted, Result: api.ResultFailed}
	quarantined := verdict.Options{Quarantine: []verdict.Quarantine{{Name: "a", Until: time.Now().AddDate(1, 0, 0)}}, Now: time.Now()}
	for _, c := range []struct {
		name string
		run  verdict.Run
		want func(string) string
	}{
		{"passed", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultPassed)}}, verdict.Options{}).Runs[0], st.Success},
		{"a result testctl does not know", verdict.Decide([]verdict.Record{{Detail: endedWith("BLOCKED", passed)}}, verdict.Options{}).Runs[0], st.Failure},
		{"skipped", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultSkipped)}}, verdict.Options{}).Runs[0], st.Warning},
		{"a skipped test case", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultPassed, skipped)}}, verdict.Options{}).Runs[0], st.Warning},
		{"failures the gate excuses", verdict.Decide([]verdict.Record{{Detail: endedWith(api.ResultFailed, failed)}}, quarantined).Runs[0], st.Warning},
	} {
		if got := RunStyle(st, c.run)("x"); got != c.want("x") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want("x"))
		}
	}
}
