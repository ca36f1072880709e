package report

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/verdict"
)

func tc(shortID, name, result, title string) api.RunTestCase {
	return api.RunTestCase{ShortID: shortID, Name: name, Status: api.StatusCompleted, Result: result, ResultTitle: title}
}

// retried is a run of three test cases whose two failures were rerun
// twice: "search" passed on the first retry, "coupon" never did.
func retried() verdict.Record {
	first := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		tc("r1-1", "login", api.ResultPassed, ""), tc("r1-2", "search", api.ResultFailed, "page 17 timed out"),
		tc("r1-3", "coupon", api.ResultFailed, "expired"),
	}}
	second := &api.RunDetail{ShortID: "r2", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		tc("r2-1", "search", api.ResultPassed, ""), tc("r2-2", "coupon", api.ResultFailed, "expired again"),
	}}
	third := &api.RunDetail{ShortID: "r3", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		tc("r3-1", "coupon", api.ResultFailed, "expired for good"),
	}}
	return verdict.Record{ShortID: "r3", URL: "https://x/r3", Detail: third, RetryLimit: 2,
		Earlier: []verdict.Attempt{{ShortID: "r1", URL: "https://x/r1", Detail: first}, {ShortID: "r2", URL: "https://x/r2", Detail: second}}}
}

func TestStepSummaryListsAttemptsAndFlakyTestCases(t *testing.T) {
	md := summaryOf(t, []verdict.Record{retried()})
	for _, want := range []string{"#### Attempts", "1. run `r1` · [open](https://x/r1)", "3. run `r3`",
		"#### ⚠️ Flaky: passed only on a retry", "**search** — passed on retry 1 of 2; first failure: page 17 timed out"} {
		if !strings.Contains(md, want) {
			t.Errorf("step summary lacks %q:\n%s", want, md)
		}
	}
}
