package evidence

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func i32(v int32) *int32 { return &v }
func i64(v int64) *int64 { return &v }

// declined is the evidence of the sandbox's declined card, as a service
// with request times would give it.
func declined() Case {
	return Case{
		Target: Target{RunShortID: "r1a2b3", CaseShortID: "r1a2b3-3", Name: "Pay with a declined card", Plan: "Checkout",
			Result: "FAILED", ResultTitle: "A declined card leaves a blank page", EvaluationThought: "POST /api/payments returned 502."},
		Network: Part[api.NetworkEntry]{Total: 3, Entries: []api.NetworkEntry{
			{Method: "GET", URL: "https://tracker.invalid/collect", ErrorText: "net::ERR_NAME_NOT_RESOLVED", IsError: true, RelativeTimestampMs: i64(300)},
			{Method: "GET", URL: "https://shop.invalid/favicon.ico", StatusCode: 404, DurationMs: i32(12), IsError: true, RelativeTimestampMs: i64(1000)},
			{Method: "POST", URL: "https://shop.invalid/api/payments", StatusCode: 502, DurationMs: i32(4900), IsError: true, RelativeTimestampMs: i64(4900)},
		}},
		Console: Part[api.ConsoleEntry]{Total: 2, Entries: []api.ConsoleEntry{
			{Level: "warning", Message: "Cookie has no SameSite", RelativeTimestampSeconds: 2},
			{Level: "error", Message: "\x1b[31mUncaught TypeError: x is undefined\x1b[0m", RelativeTimestampSeconds: 23},
		}},
		Issues: Part[api.Issue]{Total: 2, Entries: []api.Issue{
			{Severity: "MEDIUM", Title: "Recommendations answer 500"},
			{Severity: "CRITICAL", Title: "Payment step goes blank"},
		}},
	}
}

func TestLinesOfEachKind(t *testing.T) {
	got := strings.Join(Lines(declined()), "\n")
	// The request the evaluation names first, static assets last.
	want := strings.Join([]string{
		"+4.9s POST /api/payments 502 (4.9 s)",
		"+0.3s GET tracker.invalid/collect failed net::ERR_NAME_NOT_RESOLVED",
		"+1.0s GET /favicon.ico 404 (12 ms)",
		"+2.0s console warning Cookie has no SameSite",
		"+23s console error Uncaught TypeError: x is undefined",
		"issue CRITICAL: Payment step goes blank",
		"issue MEDIUM: Recommendations answer 500",
	}, "\n")
	if got != want {
		t.Errorf("lines:\n%s\nwant:\n%s", got, want)
	}
}

func TestAPICallLines(t *testing.T) {
	c := Case{Target: Target{RunShortID: "r1", CaseShortID: "r1-2"}, APICalls: Part[api.APICallEntry]{Total: 1, Entries: []api.APICallEntry{
		{Method: "GET", URL: "https://api.invalid/api/orders", StatusCode: i32(500), DurationMs: i32(120), RelativeTimestampMs: i64(2100), ErrorMessage: "boom\nagain"},
	}}}
	lines := Lines(c)
	if len(lines) != 1 || lines[0] != "+2.1s API GET /api/orders 500 (120 ms) boom again" {
		t.Errorf("lines %q", lines)
	}
	if cmds := Commands(c); len(cmds) != 1 || cmds[0] != "testctl logs r1-2 --kind api-calls --status errors" {
		t.Errorf("an API test's commands: %q", cmds)
	}
	// No times from the service: no time column, nothing invented.
	c.APICalls.Entries[0].RelativeTimestampMs = nil
	if l := Lines(c)[0]; !strings.HasPrefix(l, "API GET") {
		t.Errorf("line without a time: %q", l)
	}
}

func TestLinesAreCutAndCounted(t *testing.T) {
	var c Case
	for i := range 9 {
		c.Network.Entries = append(c.Network.Entries, api.NetworkEntry{Method: "GET", StatusCode: 404,
			URL: fmt.Sprintf("https://shop.invalid/missing-%d.png", i)})
	}
	// The same failure three times is one line; a 5xx says more than a 404
	// and is kept whatever its place.
	for range 3 {
		c.Network.Entries = append(c.Network.Entries, api.NetworkEntry{Method: "GET", StatusCode: 500, URL: "https://shop.invalid/api/recommendations"})
	}
	c.Network.Total, c.Network.More = 30, true
	lines := Lines(c)
	if len(lines) != MaxPerKind+1 || lines[MaxPerKind] != "…and 23 more" {
		t.Fatalf("lines %q", lines)
	}
	if lines[0] != "GET /api/recommendations 500 ×3" {
		t.Errorf("the application's 5xx, once, counted, first: %q", lines)
	}
}

// Third parties' failures (a blocked tracker) give way to the
// application's own: its request that never got an answer is kept, and
// first; a static asset gives way to them.
func TestTheApplicationsFailuresComeFirst(t *testing.T) {
	var entries []api.NetworkEntry
	for i := range 6 {
		entries = append(entries, api.NetworkEntry{Method: "GET", URL: fmt.Sprintf("https://tracker.invalid/e%d", i), ErrorText: "net::ERR_NAME_NOT_RESOLVED"})
	}
	entries = append(entries, api.NetworkEntry{Method: "GET", URL: "https://shop.invalid/favicon.ico", StatusCode: 404},
		api.NetworkEntry{Method: "GET", URL: "https://shop.invalid/cart", ErrorText: "net::ERR_TIMED_OUT"})
	for i := range 3 {
		entries = append(entries, api.NetworkEntry{Method: "GET", URL: fmt.Sprintf("https://tracker.invalid/late%d", i), ErrorText: "net::ERR_NAME_NOT_RESOLVED"})
	}
	lines := Lines(Case{Network: Part[api.NetworkEntry]{Entries: entries, Total: len(entries)}})
	if lines[0] != "GET /cart failed net::ERR_TIMED_OUT" || slices.Contains(lines, "GET /favicon.ico 404") || lines[len(lines)-1] != "…and 6 more" {
		t.Errorf("lines %q", lines)
	}
}

// Issue 39, point 5, as pln-flaky_sandbox's infinite scroll gives it: the
// request the evaluation names by a query value and its kind of failure
// ("the request for page 17 timed out") first, then the application's own
// failures, then the rest, static assets last, each group by time; not the
// search's timeout fifth, behind three images' 404s.
func TestEvidenceOrder(t *testing.T) {
	c := Case{Target: Target{RunShortID: "r1", CaseShortID: "r1-2", ResultTitle: "Results stopped loading at page 17 of 24",
		EvaluationThought: "Scrolling loaded 16 pages, then the request for page 17 timed out after 10 s and no more results appeared."}}
	add := func(ms int64, method, url string, code int32, errText string) {
		c.Network.Entries = append(c.Network.Entries, api.NetworkEntry{Method: method, URL: url, StatusCode: code, ErrorText: errText,
			IsError: true, RelativeTimestampMs: i64(ms)})
	}
	add(400, "GET", "https://shop.invalid/api/recommendations?sku=TR2-42", 500, "")
	add(51_000, "GET", "https://shop.invalid/static/missing-47.png", 404, "")
	add(53_000, "GET", "https://shop.invalid/static/missing-32.png", 404, "")
	add(300, "GET", "https://fonts.invalid/inter-var.woff2", 0, "net::ERR_FAILED")
	add(55_000, "GET", "https://shop.invalid/static/missing-26.png", 404, "")
	add(73_000, "GET", "https://shop.invalid/api/search?q=shoe&page=17", 0, "net::ERR_TIMED_OUT")
	add(2_000, "GET", "https://tracker.invalid/collect?v=2", 0, "net::ERR_NAME_NOT_RESOLVED")
	add(60_000, "GET", "https://shop.invalid/api/wishlist", 404, "")
	add(100, "GET", "https://cdn.invalid/api/stock", 503, "")
	c.Network.Total = len(c.Network.Entries)
	want := []string{
		"+73s GET /api/search?q=shoe&page=17 failed net::ERR_TIMED_OUT",
		"+0.1s GET cdn.invalid/api/stock 503",
		"+0.4s GET /api/recommendations?sku=TR2-42 500",
		"+2.0s GET tracker.invalid/collect?v=2 failed net::ERR_NAME_NOT_RESOLVED",
		"+60s GET /api/wishlist 404",
		"…and 4 more",
	}
	if got := Lines(c); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// With room, static assets come last, by time, whatever their host.
	e := c.Network.Entries
	c.Network.Entries = []api.NetworkEntry{e[0], e[1], e[3], e[5]}
	c.Network.Total = 4
	want = []string{
		"+73s GET /api/search?q=shoe&page=17 failed net::ERR_TIMED_OUT",
		"+0.4s GET /api/recommendations?sku=TR2-42 500",
		"+0.3s GET fonts.invalid/inter-var.woff2 failed net::ERR_FAILED",
		"+51s GET /static/missing-47.png 404",
	}
	if got := Lines(c); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestUnavailableParts(t *testing.T) {
	c := Case{Target: Target{RunShortID: "r1", CaseShortID: "r1-2"},
		Network:  Part[api.NetworkEntry]{Unavailable: "timed out"},
		Console:  Part[api.ConsoleEntry]{Unavailable: "HTTP 500"},
		APICalls: Part[api.APICallEntry]{Unavailable: "HTTP 500"},
		Issues:   Part[api.Issue]{Unavailable: "no answer"}}
	want := []string{"network: not available: timed out", "console: not available: HTTP 500",
		"API calls: not available: HTTP 500", "issues: not available: no answer"}
	if got := Lines(c); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q", got)
	}
	if FirstLine(c) != "" {
		t.Errorf("first line of no evidence: %q", FirstLine(c))
	}
	// Nothing read: every command is worth trying.
	if got := strings.Join(Commands(c), "\n"); !strings.Contains(got, "--kind network") || !strings.Contains(got, "--kind api-calls") ||
		!strings.Contains(got, "testctl run get r1 --issues") {
		t.Errorf("commands:\n%s", got)
	}
	if got := Lines(Case{}); len(got) != 1 || !strings.HasPrefix(got[0], "nothing captured") {
		t.Errorf("no evidence: %q", got)
	}
}

func TestFirstLine(t *testing.T) {
	c := declined()
	if got := FirstLine(c); got != "issue CRITICAL: Payment step goes blank" {
		t.Errorf("first line: %q", got)
	}
	c.Issues = Part[api.Issue]{}
	if got := FirstLine(c); got != "+4.9s POST /api/payments 502 (4.9 s)" {
		t.Errorf("without issues: %q", got)
	}
	// The last of the application's failures, not the noise before it.
	c.Network.Entries = append([]api.NetworkEntry{{Method: "GET", URL: "https://shop.invalid/api/recommendations", StatusCode: 500}},
		c.Network.Entries...)
	if got := FirstLine(c); got != "+4.9s POST /api/payments 502 (4.9 s)" {
		t.Errorf("after noise: %q", got)
	}
	c.Network.Entries = c.Network.Entries[2:3]
	if got := FirstLine(c); got != "+23s console error Uncaught TypeError: x is undefined" {
		t.Errorf("without a 5xx: %q", got)
	}
	c.Console.Entries = nil
	c.APICalls.Entries = []api.APICallEntry{{Method: "GET", URL: "https://a.invalid/health", StatusCode: i32(503)},
		{Method: "GET", URL: "https://a.invalid/orders/9", StatusCode: i32(404)}}
	if got := FirstLine(c); got != "API GET /health 503" {
		t.Errorf("an API test: %q", got)
	}
	c.APICalls.Entries = nil
	if got := FirstLine(c); got != "+1.0s GET /favicon.ico 404 (12 ms)" {
		t.Errorf("only a 404: %q", got)
	}
}

func TestCommandsOfABrowserTest(t *testing.T) {
	got := Commands(declined())
	want := []string{"testctl logs r1a2b3-3 --kind network --status errors", "testctl logs r1a2b3-3 --kind console",
		"testctl run get r1a2b3 --issues"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands %q", got)
	}
	// An id that a shell would split or expand is quoted.
	c := declined()
	c.CaseShortID = "x y;$(rm -rf ~)'"
	if got := Commands(c)[0]; got != `testctl logs 'x y;$(rm -rf ~)'\''' --kind network --status errors` {
		t.Errorf("quoted: %s", got)
	}
}

func TestServiceTextIsSanitised(t *testing.T) {
	c := Case{Target: Target{RunShortID: "r\x1b]0;x\x07", CaseShortID: "c\n1"},
		Network: Part[api.NetworkEntry]{Entries: []api.NetworkEntry{{Method: "GET\x1b[2J", URL: "https://a.invalid/\x1b[31mred\nline", StatusCode: 500,
			ErrorText: "\u202eevil"}}},
		Console: Part[api.ConsoleEntry]{Entries: []api.ConsoleEntry{{Level: "error\r", Message: "a\x00b\x9bc\nnext"}}},
		Issues:  Part[api.Issue]{Entries: []api.Issue{{Severity: "HIGH\x07", Title: "t\x1b[1m"}}}}
	for _, text := range []string{strings.Join(Lines(c), "\n"), strings.Join(Commands(c), "\n"), FirstLine(c), Text(c)} {
		if strings.ContainsAny(text, "\x1b\x07\x00\r\u009b\u202e") {
			t.Errorf("control characters left: %q", text)
		}
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if strings.Contains(l, "next") && !strings.Contains(l, "console") {
				t.Errorf("a service line break broke a line: %q", text)
			}
		}
	}
}

func TestText(t *testing.T) {
	got := Text(declined())
	for _, want := range []string{"Evidence:\n  +4.9s POST /api/payments 502", "\n  +23s console error Uncaught TypeError", "\nMore:\n  testctl logs r1a2b3-3 --kind network --status errors\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("text lacks %q:\n%s", want, got)
		}
	}
	if strings.ContainsAny(got, "\x1b\x00") {
		t.Errorf("control characters: %q", got)
	}
}

func TestSince(t *testing.T) {
	for ms, want := range map[int64]string{0: "+0.0s", 300: "+0.3s", 4900: "+4.9s", 7000: "+7.0s", 9999: "+9.9s", 10_000: "+10s", 23_400: "+23s"} {
		if got := Since(&ms); got != want {
			t.Errorf("Since(%d) = %q, want %q", ms, got, want)
		}
	}
	if neg := int64(-500); Since(nil) != "" || Since(&neg) != "" {
		t.Error("Since(nil)")
	}
}

func TestTextIsXMLSafe(t *testing.T) {
	c := Case{Console: Part[api.ConsoleEntry]{Entries: []api.ConsoleEntry{{Level: "error", Message: "a\uffffb\ufffe\x00c\x1b[1m\xffd"}}}}
	got := Text(c)
	if strings.ContainsAny(got, "\uffff\ufffe\x00\x1b") || !strings.Contains(got, "console error abc\ufffdd") {
		t.Errorf("text %q", got)
	}
}

func TestLimit(t *testing.T) {
	ts := make([]Target, 12)
	if kept, left := Limit(ts, DefaultMax); len(kept) != 10 || left != 2 {
		t.Errorf("Limit 10 of 12: %d kept, %d left", len(kept), left)
	}
	if kept, left := Limit(ts, 0); len(kept) != 0 || left != 12 {
		t.Errorf("Limit 0: %d kept, %d left", len(kept), left)
	}
	if kept, left := Limit(ts[:3], 10); len(kept) != 3 || left != 0 {
		t.Errorf("Limit 10 of 3: %d kept, %d left", len(kept), left)
	}
}

func TestTargetOf(t *testing.T) {
	got := TargetOf("r1", "Smoke", api.RunTestCase{ShortID: "r1-2", Name: "n", Status: "ERROR", ResultTitle: "t", EvaluationThought: "e"})
	want := Target{RunShortID: "r1", CaseShortID: "r1-2", Name: "n", Plan: "Smoke", Result: "ERROR", ResultTitle: "t", EvaluationThought: "e"}
	if got != want {
		t.Errorf("%+v", got)
	}
}

// Issue 33: a line fitted to a terminal is cut in its URL, in the middle,
// and after its status, never in the status; other lines at their end.
func TestFitKeepsTheStatus(t *testing.T) {
	c := declined()
	c.Network.Entries[2].URL = "https://shop.invalid/api/v2/checkout/sessions/abc/payments"
	c.APICalls = Part[api.APICallEntry]{Total: 1, Entries: []api.APICallEntry{
		{Method: "GET", URL: "https://api.invalid/api/orders/with/a/long/path", StatusCode: i32(500), DurationMs: i32(120), RelativeTimestampMs: i64(2100), ErrorMessage: "the upstream timed out"},
	}}
	if got, want := Fit(c, 0), Lines(c); !slices.Equal(got, want) {
		t.Errorf("no width must give the lines whole:\n%q\n%q", got, want)
	}
	got := Fit(c, 40)
	for _, want := range []string{
		"+0.3s GET tracke…nvalid/collect failed …",
		"+1.0s GET /favicon.ico 404 (12 ms)",
		"+4.9s POST /api/v2…ns/abc/payments 502 …",
		"+23s console error Uncaught TypeError: …",
		"+2.1s API GET /api/o…h/a/long/path 500 …",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("fitted lines lack %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
	for _, l := range got {
		if n := len([]rune(l)); n > 40 {
			t.Errorf("%d wide: %q", n, l)
		}
	}
}
