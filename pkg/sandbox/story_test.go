package sandbox

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

// The sandbox tells one story: a test case's logs hold what its evaluation
// says, and passing test cases show nothing that would contradict theirs.

type logsOf struct {
	t   *testing.T
	s   *Server
	rtc string
}

func (l logsOf) network(query string) []api.NetworkEntry {
	return getLogs(l.t, l.s, l.rtc, "kind=network&"+query).Network
}
func (l logsOf) console(query string) []api.ConsoleEntry {
	return getLogs(l.t, l.s, l.rtc, "kind=console&"+query).Console
}
func (l logsOf) apiCalls(query string) []api.APICallEntry {
	return getLogs(l.t, l.s, l.rtc, "kind=apiCalls&"+query).APICalls
}

func hasRequest(entries []api.NetworkEntry, method, urlPart string, status int32, errorText string) bool {
	return slices.ContainsFunc(entries, func(e api.NetworkEntry) bool {
		return e.Method == method && strings.Contains(e.URL, urlPart) && e.StatusCode == status && strings.Contains(e.ErrorText, errorText)
	})
}

func hasMessage(entries []api.ConsoleEntry, level, part string) bool {
	return slices.ContainsFunc(entries, func(e api.ConsoleEntry) bool { return e.Level == level && strings.Contains(e.Message, part) })
}

// evidenceOf says, for each way a test case fails in the fixtures, what its
// evaluation claims (each phrase must be in its title or thought) and how
// its logs show it (each check reads what testctl's evidence reads: failed
// requests, console errors and warnings, failed API calls).
var evidenceOf = map[string]struct {
	claims []string
	logs   func(l logsOf) error
}{
	"Pay with a declined card": {[]string{"POST /api/payments returned 502", "uncaught TypeError"}, func(l logsOf) error {
		if !hasRequest(l.network("statusFilter=errors"), "POST", "/api/payments", 502, "") {
			return fmt.Errorf("no failed POST /api/payments 502")
		}
		if !hasMessage(l.console("includeWarnings=true"), "error", "Uncaught TypeError") {
			return fmt.Errorf("no uncaught TypeError")
		}
		return nil
	}},
	"Apply an expired coupon": {[]string{"SPRING-2019", "$84.00 to $67.20", "no error was shown"}, func(l logsOf) error {
		if !hasRequest(l.network("statusFilter=success"), "POST", "/api/cart/coupon", 200, "") {
			return fmt.Errorf("the coupon was not accepted (POST /api/cart/coupon 200)")
		}
		if !hasMessage(l.console(""), "log", "SPRING-2019 applied: total $84.00 -> $67.20") {
			return fmt.Errorf("no new total in the console")
		}
		if hasRequest(l.network("statusFilter=errors"), "POST", "/api/cart/coupon", 400, "") {
			return fmt.Errorf("the coupon was rejected")
		}
		return nil
	}},
	"Search the catalogue with infinite scroll": {[]string{"page 17", "timed out after 10 s", "16 pages"}, func(l logsOf) error {
		if !hasRequest(l.network("statusFilter=errors"), "GET", "/api/search?q=shoe&page=17", 0, "ERR_TIMED_OUT") {
			return fmt.Errorf("page 17 did not time out")
		}
		pages := l.network("statusFilter=success&urlPattern=" + "/api/search")
		if len(pages) != 16 || !hasRequest(pages, "GET", "page=16", 200, "") {
			return fmt.Errorf("%d pages loaded, want 1 to 16", len(pages))
		}
		if !hasMessage(l.console(""), "error", "page 17 failed") {
			return fmt.Errorf("no console error for page 17")
		}
		return nil
	}},
	"Health endpoint answers 200": {[]string{"503", "status starting"}, func(l logsOf) error {
		calls := l.apiCalls("statusFilter=errors&urlPattern=/health$")
		if len(calls) != 1 || calls[0].StatusCode == nil || *calls[0].StatusCode != 503 || !strings.Contains(calls[0].ResponseBody, `"starting"`) {
			return fmt.Errorf("health calls %+v", calls)
		}
		return nil
	}},
	// Both the test case that stopped the run and the one cut short by it.
	"Stopped: environment": {[]string{"timed out"}, func(l logsOf) error {
		if !hasRequest(l.network("statusFilter=errors"), "GET", envStagingURL, 0, "ERR_TIMED_OUT") {
			return fmt.Errorf("no page load timed out")
		}
		return nil
	}},
}

func failureKey(c api.RunTestCase) string {
	if c.Status == api.StatusError {
		return "Stopped: environment"
	}
	return c.Name
}

// everyPlanRun runs every fixture plan, and the failing test cases by id,
// to their end.
func everyPlanRun(t *testing.T) (*Server, []api.RunDetail) {
	s, fake := newSandbox(t, Options{})
	var ids []string
	for _, p := range fixturePlans {
		ids = append(ids, startPlan(t, s, p.ShortID).Run.ShortID)
	}
	ids = append(ids, startCases(t, s, TestCaseDeclinedCard, TestCaseExpiredCoupon).Run.ShortID)
	advance(fake, 4000)
	var runs []api.RunDetail
	for _, id := range ids {
		runs = append(runs, getRun(t, s, id, "?testCases=all&issues=true"))
	}
	return s, runs
}

func TestFailuresLeaveTheEvidenceTheirEvaluationDescribes(t *testing.T) {
	s, runs := everyPlanRun(t)
	checked := 0
	for _, run := range runs {
		for _, c := range run.RunTestCases {
			if c.Result != api.ResultFailed && c.Status != api.StatusError {
				continue
			}
			checked++
			want, ok := evidenceOf[failureKey(c)]
			if !ok {
				t.Errorf("%s %q (%s) has no story: its logs say nothing of its failure", run.ShortID, c.Name, c.ResultTitle)
				continue
			}
			evaluation := c.ResultTitle + " " + c.EvaluationThought
			for _, claim := range want.claims {
				if !strings.Contains(evaluation, claim) {
					t.Errorf("%q: the evaluation does not say %q: %s", c.Name, claim, evaluation)
				}
			}
			if err := want.logs(logsOf{t, s, c.ShortID}); err != nil {
				t.Errorf("%s %q: %v (evaluation: %s)", run.ShortID, c.Name, err, evaluation)
			}
			// A failure is named by the run's issues.
			if !slices.ContainsFunc(run.Issues, func(is api.Issue) bool {
				return slices.ContainsFunc(is.TestCases, func(tc api.IssueTestCase) bool { return tc.ShortID == c.ShortID && tc.Name == c.Name })
			}) {
				t.Errorf("%s %q: no issue names it", run.ShortID, c.Name)
			}
		}
	}
	if checked < 8 {
		t.Errorf("only %d failures checked", checked)
	}
}

// Background noise every browser test shows: a blocked tracker and font,
// missing images, the recommendations API's known 500. None of it is what
// a verdict is about.
var (
	noiseURL     = regexp.MustCompile(`^https://(analytics\.tracker|fonts\.partner)\.invalid/|/favicon\.ico$|/static/missing-\d+\.png$|/api/recommendations\?`)
	noiseConsole = []string{EscapeColour, "Failed to load resource: the server responded with a status of 500 (Internal Server Error)"}
)

func TestPassingTestCasesShowNothingThatContradictsThem(t *testing.T) {
	s, runs := everyPlanRun(t)
	checked := 0
	for _, run := range runs {
		for _, c := range run.RunTestCases {
			if c.Result != api.ResultPassed {
				continue
			}
			checked++
			l := logsOf{t, s, c.ShortID}
			for _, e := range l.network("statusFilter=errors") {
				if !noiseURL.MatchString(e.URL) {
					t.Errorf("%s %q passed with a failed request: %s %s %d %s", run.ShortID, c.Name, e.Method, e.URL, e.StatusCode, e.ErrorText)
				}
			}
			for _, e := range l.console("") {
				if e.Level == "error" && !slices.Contains(noiseConsole, e.Message) {
					t.Errorf("%s %q passed with a console error: %q", run.ShortID, c.Name, e.Message)
				}
			}
			for _, e := range l.apiCalls("statusFilter=errors") {
				expected := e.TextResult != nil && strings.Contains(*e.TextResult, "as it should")
				if strings.HasSuffix(e.URL, "/health") || (!expected && e.StatusCode != nil) {
					t.Errorf("%s %q passed with a failed API call: %s %s", run.ShortID, c.Name, e.Method, e.URL)
				}
			}
			if c.Name == "Health endpoint answers 200" && len(l.apiCalls("urlPattern=/health$&statusFilter=success")) != 1 {
				t.Errorf("%s: the API test's health call did not succeed", run.ShortID)
			}
		}
	}
	if checked < 15 {
		t.Errorf("only %d passing test cases checked", checked)
	}
}

// The flaky plan's failed attempt and its passing retry differ where the
// evaluations say they do.
func TestFlakyAttemptAndRetryDiffer(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	first := startPlan(t, s, PlanFlaky).Run.ShortID
	advance(fake, 20)
	retry := decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run/"+first, ProjectKey, map[string]any{"failedOnly": true}), 200).Run.ShortID
	advance(fake, 20)
	byName := func(run string) map[string]api.RunTestCase {
		m := map[string]api.RunTestCase{}
		for _, c := range getRun(t, s, run, "?testCases=all").RunTestCases {
			m[c.Name] = c
		}
		return m
	}
	before, after := byName(first), byName(retry)
	const search, health = "Search the catalogue with infinite scroll", "Health endpoint answers 200"
	for _, name := range []string{search, health} {
		if before[name].Result != api.ResultFailed || after[name].Result != api.ResultPassed {
			t.Fatalf("%s: %s then %s", name, before[name].Result, after[name].Result)
		}
	}
	failed, passed := logsOf{t, s, before[search].ShortID}, logsOf{t, s, after[search].ShortID}
	if !hasRequest(failed.network("statusFilter=errors"), "GET", "page=17", 0, "ERR_TIMED_OUT") ||
		len(failed.network("urlPattern=page=(1[89]|2[0-4])$")) != 0 {
		t.Error("the failed attempt loaded pages after 17, or 17 did not time out")
	}
	if !hasRequest(passed.network("statusFilter=success"), "GET", "page=17", 200, "") ||
		!hasRequest(passed.network("statusFilter=success"), "GET", "page=24", 200, "") ||
		len(passed.network("statusFilter=errors&urlPattern=/api/search")) != 0 {
		t.Error("the passing retry did not load pages 17 to 24")
	}
	status := func(calls []api.APICallEntry) int32 {
		if len(calls) != 1 || calls[0].StatusCode == nil {
			return -1
		}
		return *calls[0].StatusCode
	}
	if a, b := status(logsOf{t, s, before[health].ShortID}.apiCalls("urlPattern=/health$")),
		status(logsOf{t, s, after[health].ShortID}.apiCalls("urlPattern=/health$")); a != 503 || b != 200 {
		t.Errorf("health: %d, then %d; want 503, then 200", a, b)
	}
}

// Requests, API calls and console messages share one origin, the first
// captured entry: the declined card's TypeError is logged in the second
// its payment request ended.
func TestTimesShareTheFirstEntrysOrigin(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	id := startCases(t, s, TestCaseDeclinedCard, TestCaseHealthAPI).Run.ShortID
	advance(fake, 30)
	var card, apiTest string
	for _, c := range getRun(t, s, id, "?testCases=all").RunTestCases {
		switch c.Name {
		case "Pay with a declined card":
			card = c.ShortID
		case "Health endpoint answers 200":
			apiTest = c.ShortID
		}
	}
	l := logsOf{t, s, card}
	net := l.network("")
	for i, e := range net {
		if e.RelativeTimestampMs == nil || (i == 0 && *e.RelativeTimestampMs != 0) ||
			(i > 0 && *e.RelativeTimestampMs < *net[i-1].RelativeTimestampMs) {
			t.Fatalf("request %d: times not from the first entry, in order", i)
		}
	}
	pay := net[len(net)-1]
	if pay.URL != envStagingURL+"/api/payments" || pay.StatusCode != 502 {
		t.Fatalf("the last request is %s %d, not the payment that ended the test", pay.URL, pay.StatusCode)
	}
	con := l.console("includeWarnings=true&includeInfo=true")
	last := con[len(con)-1]
	if con[0].RelativeTimestampSeconds != 0 || last.Message != PaymentTypeError ||
		int64(last.RelativeTimestampSeconds) != (*pay.RelativeTimestampMs+int64(*pay.DurationMs))/1000 {
		t.Errorf("TypeError at +%ds, payment at %d ms for %d ms", last.RelativeTimestampSeconds, *pay.RelativeTimestampMs, *pay.DurationMs)
	}
	calls := logsOf{t, s, apiTest}.apiCalls("")
	if len(calls) == 0 {
		t.Fatal("the API test made no API calls")
	}
	for i, c := range calls {
		if c.RelativeTimestampMs == nil || (i == 0 && *c.RelativeTimestampMs != 0) ||
			(i > 0 && *c.RelativeTimestampMs <= *calls[i-1].RelativeTimestampMs) {
			t.Fatalf("API call %d: times not from the first call, in order", i)
		}
	}
}
