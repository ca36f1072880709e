package htmlreport

import (
	"testing"

	"github.com/testctl/testctl/pkg/verdict"
)

// With a baseline or a quarantine, each failure wears its class and the
// page filters by it.
func TestBrowserFailureClasses(t *testing.T) {
	browser := browserPath(t)
	r := Report{ExitCode: 1, Verdict: "FAILED", Class: verdict.Failed, Runs: []Run{{PlanName: "Checkout", ShortID: "r1",
		Result: "FAILED", Class: verdict.Failed, Status: "COMPLETED", Cases: []Case{
			{Name: "Pay", ShortID: "r1-1", Class: verdict.Failed, Status: "COMPLETED", Result: "FAILED", Failure: "new"},
			{Name: "Coupon", ShortID: "r1-2", Class: verdict.Failed, Status: "COMPLETED", Result: "FAILED", Failure: "known"},
			{Name: "Search", ShortID: "r1-3", Class: verdict.Failed, Status: "COMPLETED", Result: "FAILED", Failure: "quarantined",
				FailureNote: "quarantined until 2026-12-31 (owner @alice)"},
			{Name: "Login", ShortID: "r1-4", Class: verdict.Passed, Status: "COMPLETED", Result: "PASSED"},
		}}}}
	p := openReport(t, browser, r, 1280)
	badges := eval[[]string](t, p, `[...document.querySelectorAll('details.case .pill.failure')].map(b => b.textContent)`)
	if len(badges) != 3 || badges[0] != "new" || badges[1] != "known" || badges[2] != "quarantined" {
		t.Errorf("badges %q", badges)
	}
	for filter, want := range map[string]string{"new": "Pay", "known": "Coupon", "quarantined": "Search"} {
		shown := eval[[]string](t, p, `document.querySelector('button[data-filter=`+filter+`]').click(); [...document.querySelectorAll('details.case')].filter(d => !d.hidden).map(d => d.querySelector('.name').textContent)`)
		if len(shown) != 1 || shown[0] != want {
			t.Errorf("filter %s shows %q, want %s", filter, shown, want)
		}
	}
	if !eval[bool](t, p, `document.body.textContent.includes('quarantined until 2026-12-31 (owner @alice)')`) {
		t.Error("the quarantine's note is not on the page")
	}
}
