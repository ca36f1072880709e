package htmlreport

import (
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/verdict"
)

// hostile is service text that would run a script, load something or break
// out of the page if it were ever read as markup.
const hostile = `<script>window.pwned=1;document.title="pwned"</script></script><!-- "><img src=x onerror="window.pwned=2;document.title='pwned'"> ` + "\u2028\u2029" + ` &amp; </style>`

var at = time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// failingReport is a FAILED command with two plans: a failing run with
// evidence (a flaky test case retried once), and a passing one.
func failingReport() Report {
	return Report{
		Verdict: "FAILED", Class: verdict.Failed, ExitCode: 1, GeneratedAt: at.Add(20 * time.Minute),
		Runs: []Run{
			{
				PlanName: "Search", PlanShortID: "pln-search", ShortID: "r-pass1", URL: "https://app.example.test/runs/r-pass1",
				Status: "COMPLETED", Result: "PASSED", Class: verdict.Passed, StartedAt: at, Ended: "after 03:12",
				History: history("r-pass1", "PPPPFPPP"),
				Cases: []Case{
					{Name: "Search by keyword", ShortID: "rtc-s1", Class: verdict.Passed, Status: "COMPLETED", Result: "PASSED", ResultTitle: "Results listed", Attempt: 1},
					{Name: "Search with filters", ShortID: "rtc-s2", Class: verdict.Passed, Status: "COMPLETED", Result: "PASSED", Attempt: 1},
				},
			},
			{
				PlanName: "Checkout", PlanShortID: "pln-checkout", ShortID: "r-fail2", URL: "https://app.example.test/runs/r-fail2",
				Status: "COMPLETED", Result: "FAILED", Class: verdict.Failed, StartedAt: at, Ended: "after 07:40",
				Attempts: []Attempt{
					{ShortID: "r-fail1", URL: "https://app.example.test/runs/r-fail1", Result: "FAILED", Class: verdict.Failed},
					{ShortID: "r-fail2", URL: "https://app.example.test/runs/r-fail2", Result: "FAILED", Class: verdict.Failed},
				},
				History: history("r-fail2", "FFPPFPPPPPPF"),
				Cases: []Case{
					{Name: "Open the cart", ShortID: "rtc-c1", Class: verdict.Passed, Status: "COMPLETED", Result: "PASSED", ResultTitle: "Cart shows 2 items", Attempt: 1},
					{
						Name: "Log in with a saved account", ShortID: "rtc-c2b", Class: verdict.Flaky, Status: "COMPLETED", Result: "PASSED",
						ResultTitle: "Logged in", Evaluation: "The account page showed the user's name.", Attempt: 2,
						FailedAttempt: &Case{
							Name: "Log in with a saved account", ShortID: "rtc-c2a", Class: verdict.Failed, Status: "COMPLETED", Result: "FAILED",
							ResultTitle: "The login button did nothing", Evaluation: "After clicking Log in the page stayed the same for 30 s.",
							Attempt: 1, Evidence: sampleEvidence("rtc-c2a", 12, true),
						},
					},
					{
						Name: "Pay with a saved card", ShortID: "rtc-c3", Class: verdict.Failed, Status: "COMPLETED", Result: "FAILED",
						ResultTitle: "Payment was declined with an internal error",
						Evaluation:  "The agent filled in the card and pressed Pay. The page showed \"Something went wrong (500)\" instead of the confirmation.\nThe goal, a confirmed order, was not reached.",
						Attempt:     2,
						Evidence:    sampleEvidence("rtc-c3", 40, true),
					},
					{Name: "Apply a coupon", ShortID: "rtc-c4", Class: verdict.Errored, Status: "ERROR", ResultTitle: "The browser crashed", Attempt: 2,
						Evidence: &evidence.Case{Network: evidence.Part[api.NetworkEntry]{Unavailable: "HTTP 500"}}},
					{Name: "Gift wrapping", ShortID: "rtc-c5", Class: verdict.Skipped, Status: "COMPLETED", Result: "SKIPPED", Attempt: 1},
				},
			},
		},
	}
}

func history(current, marks string) []HistoryEntry {
	var out []HistoryEntry
	for i, m := range marks {
		h := HistoryEntry{ShortID: fmt.Sprintf("r-h%02d", i), Status: "COMPLETED", Result: "PASSED", Class: verdict.Passed,
			Duration: time.Duration(150+i*13) * time.Second, CreatedAt: at.Add(-time.Duration(i) * 24 * time.Hour)}
		if i == 0 {
			h.ShortID = current
		}
		h.URL = "https://app.example.test/runs/" + h.ShortID
		if m == 'F' {
			h.Result, h.Class = "FAILED", verdict.Failed
		}
		out = append(out, h)
	}
	return out
}

// sampleEvidence has n network requests (every seventh failing), timed when
// timed is set, a console log, two API calls and an issue.
func sampleEvidence(caseID string, n int, timed bool) *evidence.Case {
	e := &evidence.Case{Target: evidence.Target{CaseShortID: caseID,
		EvaluationThought: "POST /api/v1/payments answered 500 and the console shows an uncaught TypeError"}}
	for i := range n {
		ne := api.NetworkEntry{
			URL: fmt.Sprintf("https://shop.example.test/api/v1/items/%d?include=price,stock", i), Method: "GET",
			StatusCode: 200, DurationMs: ptr(int32(40 + (i*37)%400)),
		}
		if i%5 == 0 {
			ne.Method = "POST"
		}
		if i%7 == 3 {
			ne.StatusCode, ne.IsError, ne.ErrorText = 500, true, "Internal Server Error"
		}
		if i == n-1 {
			ne.StatusCode, ne.DurationMs, ne.ErrorText = 0, nil, "net::ERR_CONNECTION_RESET"
		}
		if timed {
			ne.RelativeTimestampMs = ptr(int64(i * 90))
		}
		e.Network.Entries = append(e.Network.Entries, ne)
	}
	e.Network.Total = n
	e.Console = evidence.Part[api.ConsoleEntry]{Total: 3, Entries: []api.ConsoleEntry{
		{Level: "warning", Message: "Slow network detected", RelativeTimestampSeconds: 2},
		{Level: "error", Message: "Uncaught TypeError: Cannot read properties of undefined (reading 'total')", Source: ptr("https://shop.example.test/app.js"), Line: ptr(int32(812)), Column: ptr(int32(17)), RelativeTimestampSeconds: 9},
		{Level: "error", Message: "Failed to load resource: the server responded with a status of 500", RelativeTimestampSeconds: 9},
	}}
	e.APICalls = evidence.Part[api.APICallEntry]{Total: 2, Entries: []api.APICallEntry{
		{URL: "https://shop.example.test/api/v1/payments", Method: "POST", StatusCode: ptr(int32(500)), DurationMs: ptr(int32(812)),
			RequestBody: `{"card":"saved-1","amount":4200}`, ResponseBody: `{"error":"internal","trace":"PaymentService.charge at line 88`, ResponseBodyTruncated: true,
			ErrorMessage: "HTTP 500"},
		{URL: "https://shop.example.test/api/v1/cart", Method: "GET", StatusCode: ptr(int32(200)), Success: true, DurationMs: ptr(int32(35)), ResponseBody: `{"items":2}`},
	}}
	e.Issues = evidence.Part[api.Issue]{Total: 1, Entries: []api.Issue{{
		Title: "Payment API returns 500", Description: "POST /api/v1/payments failed in 3 of 3 tries.", Severity: "HIGH",
		IssueType: "NETWORK", HelpURL: "https://docs.example.test/issues/network", Tags: []string{"payments", "5xx"},
	}}}
	return e
}

// hostileReport puts hostile text in every string the service sends.
func hostileReport() Report {
	ev := sampleEvidence(hostile, 3, false)
	for i := range ev.Network.Entries {
		ev.Network.Entries[i].URL = "https://x.test/" + hostile
		ev.Network.Entries[i].ErrorText = hostile
	}
	ev.Console.Entries[0].Message = hostile
	ev.Console.Entries[0].Level = hostile
	ev.Console.Entries[1].Source = ptr(hostile)
	ev.APICalls.Entries[0].RequestBody = hostile
	ev.APICalls.Entries[0].ResponseBody = hostile
	ev.APICalls.Entries[0].URL = "javascript:window.pwned=3"
	ev.Issues.Entries[0].Title = hostile
	ev.Issues.Entries[0].Description = hostile
	ev.Issues.Entries[0].HelpURL = "javascript:window.pwned=4"
	ev.Issues.Entries[0].Tags = []string{hostile}
	ev.Network.Unavailable = ""
	ev.Console.Unavailable = hostile
	return Report{
		Verdict: "FAILED", Class: verdict.Failed, ExitCode: 1, Partial: true, PartialReason: "SIGTERM", GeneratedAt: at,
		Runs: []Run{{
			PlanName: "plan " + hostile, PlanShortID: hostile, ShortID: "r-" + hostile, URL: "javascript:window.pwned=5",
			Status: hostile, Result: "FAILED", Class: verdict.Failed, Problem: hostile,
			Attempts: []Attempt{{ShortID: hostile, URL: "javascript:window.pwned=6"}, {ShortID: "r2", URL: `https://x.test/"><script>window.pwned=7</script>`}},
			History:  []HistoryEntry{{ShortID: hostile, URL: "javascript:window.pwned=8", Result: "FAILED", Class: verdict.Failed, Duration: time.Second}},
			Cases: []Case{{
				Name: hostile, ShortID: hostile, Class: verdict.Failed, Status: hostile, Result: hostile, ResultTitle: hostile,
				Evaluation: hostile, Attempt: 1, Evidence: ev,
			}, {
				Name: "flaky " + hostile, Class: verdict.Flaky, Result: "PASSED", Attempt: 2, Evidence: ev,
				FailedAttempt: &Case{Name: hostile, Class: verdict.Failed, ResultTitle: hostile, Evaluation: hostile, Evidence: ev},
			}},
		}},
	}
}
