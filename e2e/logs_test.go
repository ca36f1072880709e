package e2e_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/sandbox"
)

// finishedTestCases runs the passing plan to its end on the fake clock and
// returns its run test case short ids by test case name.
func finishedTestCases(t *testing.T, e *cmdtest.Env) map[string]string {
	t.Helper()
	c := &api.Client{BaseURL: e.Getenv("TESTCTL_BASE_URL"), APIKey: sandbox.ProjectKey, Clock: e.Clock}
	ctx := context.Background()
	started, err := c.StartRun(ctx, api.StartRunRequest{TestPlanShortID: "pln-passing_sandbox"})
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	run, err := c.GetRun(ctx, started.Run.ShortID, api.GetRunOptions{TestCases: "all"})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, tc := range run.RunTestCases {
		ids[tc.Name] = tc.ShortID
	}
	return ids
}

const (
	login  = "Log in with email and password"
	search = "Search the catalogue with infinite scroll"
	health = "Health endpoint answers 200"
)

func TestNetworkTableAndFiltersOnTheWire(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedTestCases(t, e)[login]
	r := e.Run("logs", id, "--kind", "network", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "kind=network")
	if strings.Contains(r.Stderr, "statusFilter") {
		t.Error("statusFilter sent without --status")
	}
	cmdtest.Contains(t, "table", r.Stdout, "TIME\tMETHOD\tSTATUS\tDURATION\tURL\tERROR\n+0.0s\tGET\t200\t",
		"\tGET\tfailed\t-\thttps://analytics.tracker.invalid/collect?v=2&t=pageview\tnet::ERR_NAME_NOT_RESOLVED\n",
		"net::ERR_FAILED; Blocked by CORS policy", "\t404\t")

	r = e.Run("logs", id, "--kind", "network", "--status", "errors", "--url", "FAVICON|recommend", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "statusFilter=errors", "urlPattern=FAVICON%7Crecommend")
	rows := strings.Split(strings.TrimSpace(r.Stdout), "\n")[1:]
	if len(rows) == 0 {
		t.Fatalf("no rows:\n%s", r.Stdout)
	}
	for _, row := range rows {
		if !strings.Contains(row, "favicon") && !strings.Contains(row, "recommendations") {
			t.Errorf("row outside the --url filter: %s", row)
		}
		if !strings.Contains(row, "\t404\t") && !strings.Contains(row, "\t500\t") {
			t.Errorf("row outside --status errors: %s", row)
		}
	}
}

func TestHasMoreFooterAndMessage(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedTestCases(t, e)[search]
	r := e.Run("logs", id, "--kind", "network").Expect(t, 0)
	// One note, in the flags' names: the service's own (urlPattern,
	// statusFilter) would name parameters nobody types.
	if r.Stderr != "! showing 250 of 600 matching entries; narrow the result with --url or --status\n" {
		t.Errorf("stderr: %q", r.Stderr)
	}
	if n := strings.Count(r.Stdout, "\n"); n != 251 {
		t.Errorf("%d lines, want a header and 250 rows", n)
	}
	// The footer is on stderr in every format, so the JSON stays clean.
	r = e.Run("logs", id, "--kind", "network", "-o", "json").Expect(t, 0)
	var doc api.LogsResponse
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || !doc.HasMore || doc.Returned != 250 || doc.TotalMatched != 600 {
		t.Errorf("json: %v hasMore=%v returned=%d matched=%d", err, doc.HasMore, doc.Returned, doc.TotalMatched)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "showing 250 of 600")

	// A narrower filter: no footer.
	r = e.Run("logs", id, "--kind", "network", "--status", "errors").Expect(t, 0)
	if strings.Contains(r.Stderr, "showing") {
		t.Errorf("footer without hasMore: %s", r.Stderr)
	}
	// Nothing captured or nothing matching: no header, only the service's
	// message, on stderr.
	r = e.Run("logs", finishedTestCases(t, e)[health], "--kind", "console").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "API test")
	if r.Stdout != "" {
		t.Errorf("stdout of an empty result: %q", r.Stdout)
	}
	r = e.RunWith(cmdtest.RunOptions{TTY: true}, "logs", id, "--kind", "network", "--url", "no-such-url").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "None of the 600 captured entries match; use a broader --url or --status all.")
	if r.Stdout != "" {
		t.Errorf("stdout of an empty result on a terminal: %q", r.Stdout)
	}
}

func TestConsoleEscapesNeverReachStdout(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedTestCases(t, e)[login]
	check := func(name, out string) {
		t.Helper()
		if strings.ContainsAny(out, "\x1b\x07\u009b") || strings.Contains(out, "pwned") || strings.Contains(out, "evil") {
			t.Errorf("%s: an escape sequence reached stdout: %q", name, out)
		}
		cmdtest.Contains(t, name, out, "[analytics] could", "Setting document title", "Docs: link")
	}
	r := e.Run("logs", id, "--kind", "console", "--warnings", "--info").Expect(t, 0)
	check("plain table", r.Stdout)
	cmdtest.Contains(t, "plain table", r.Stdout, "TIME\tLEVEL\tMESSAGE\tSOURCE\n", "\terror\t",
		"https://staging.sandbox.testctl.invalid/static/app.js:1842:17", "\twarning\t", "\tinfo\t", "+0.0s\t")

	// On a terminal without colour, any ESC at all would be a leak.
	e.Setenv("NO_COLOR", "1")
	r = e.RunWith(cmdtest.RunOptions{TTY: true}, "logs", id, "--kind", "console", "--warnings", "--info").Expect(t, 0)
	check("terminal table", r.Stdout)
	e.Setenv("NO_COLOR", "")

	r = e.Run("logs", id, "--kind", "console", "-o", "json").Expect(t, 0)
	if strings.Contains(r.Stdout, "\x1b") || !strings.Contains(r.Stdout, `\u001b[31m[analytics] could not send events`) {
		t.Errorf("JSON must escape ESC as \\u001b:\n%s", r.Stdout)
	}
}

// The console log shows errors, log-level messages and warnings by
// default; --warnings=false leaves the warnings out, --info adds info-level
// messages, and nothing leaves out the errors or the log-level messages.
func TestConsoleLevelFilters(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedTestCases(t, e)[login]
	levels := func(name string, r cmdtest.Result, want ...string) {
		t.Helper()
		for _, level := range []string{"error", "log", "warning", "info"} {
			if got := strings.Contains(r.Stdout, "\t"+level+"\t"); got != slices.Contains(want, level) {
				t.Errorf("%s: %s entries shown: %v, want %v:\n%s", name, level, got, !got, r.Stdout)
			}
		}
	}
	r := e.Run("logs", id, "--kind", "console", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "includeWarnings=true")
	if strings.Contains(r.Stderr, "includeInfo") {
		t.Error("includeInfo sent without --info")
	}
	levels("by default", r, "error", "log", "warning")
	r = e.Run("logs", id, "--kind", "console", "--warnings", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "includeWarnings=true")
	levels("--warnings", r, "error", "log", "warning")
	r = e.Run("logs", id, "--kind", "console", "--warnings=false", "--debug").Expect(t, 0)
	if strings.Contains(r.Stderr, "includeWarnings") {
		t.Error("includeWarnings sent with --warnings=false")
	}
	levels("--warnings=false", r, "error", "log")
	r = e.Run("logs", id, "--kind", "console", "--info", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "includeInfo=true", "includeWarnings=true")
	levels("--info", r, "error", "log", "warning", "info")
	r = e.Run("logs", id, "--kind", "network", "--debug").Expect(t, 0)
	if strings.Contains(r.Stderr, "includeWarnings") {
		t.Error("includeWarnings sent for the network log")
	}
}

// The help says what each console flag shows, and what none leaves out.
func TestConsoleFlagsHelp(t *testing.T) {
	r := cmdtest.New(t).Run("logs", "--help").Expect(t, 0)
	cmdtest.Contains(t, "help", r.Stdout, "--warnings           console: warnings too; on unless --warnings=false",
		"--info               console: info-level messages too", "always shows its errors and its log-level messages",
		"--warnings=false leaves them out (console) (default true)")
}

func TestAPICalls(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedTestCases(t, e)[health]
	r := e.Run("logs", id, "--kind", "api-calls", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "kind=apiCalls")
	cmdtest.Contains(t, "table", r.Stdout, "TIME\tMETHOD\tSTATUS\tSUCCESS\tDURATION\tURL\tTRUNCATED\tERROR\n+0.0s\tGET\t200\tyes\t",
		"\thttps://api.sandbox.testctl.invalid/v1/products?limit=60\tresponse\t",
		"\thttps://api.sandbox.testctl.invalid/v1/orders\trequest\t",
		"\tGET\tfailed\tno\t-\thttps://internal.sandbox.testctl.invalid/metrics\t-\tdial tcp")

	r = e.Run("logs", id, "--kind", "api-calls", "--full", "--url", "/health$").Expect(t, 0)
	cmdtest.Contains(t, "--full", r.Stdout, "GET https://api.sandbox.testctl.invalid/health\n", "status 200 · success",
		"result:\n    The service reports status ok", "Authorization: Bearer ****", "Accept: application/json",
		"response body:\n    {\n      \"status\": \"ok\",")
	if strings.Contains(r.Stdout, "[redacted]") || strings.Contains(r.Stdout, "products") {
		t.Errorf("--full:\n%s", r.Stdout)
	}
	r = e.Run("logs", id, "--kind", "api-calls", "--full", "--url", "orders$").Expect(t, 0)
	cmdtest.Contains(t, "--full", r.Stdout, "request body (truncated by the service):")

	// Credential headers are masked in JSON too: it is what CI keeps.
	r = e.Run("logs", id, "--kind", "api-calls", "-o", "json").Expect(t, 0)
	if !strings.Contains(r.Stdout, `"Authorization": "Bearer ****"`) || strings.Contains(r.Stdout, "[redacted]") {
		t.Errorf("json headers not masked")
	}
}

func TestLogsInvalidFlagsSendNothing(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{
		{"logs", "x-1"},
		{"logs", "x-1", "--kind", "dom"},
		{"logs", "x-1", "--kind", "network", "--warnings"},
		{"logs", "x-1", "--kind", "network", "--info"},
		{"logs", "x-1", "--kind", "console", "--url", "api"},
		{"logs", "x-1", "--kind", "console", "--status", "errors"},
		{"logs", "x-1", "--kind", "api-calls", "--status", "bad"},
		{"logs", "x-1", "--kind", "network", "--url", "(unclosed"},
		{"logs", "x-1", "--kind", "console", "--full"},
	} {
		r := e.Run(args...).Expect(t, 2)
		if !strings.Contains(r.Stderr, "--") || r.Stdout != "" {
			t.Errorf("%q: %s", args, r.Output())
		}
	}
	if n := e.Requests(getLogs); n != 0 {
		t.Errorf("%d logs requests reached the sandbox", n)
	}
}

func TestUnknownRunTestCase(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("logs", "zzzzzz-1", "--kind", "network").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "zzzzzz-1")
	if strings.Contains(r.Stderr, "is a run") {
		t.Errorf("a hint for an id that names nothing:\n%s", r.Stderr)
	}
}

// A run's short id where a run test case's is expected: the 404 comes
// with the run's test cases and the command that reads one.
func TestRunIDGetsTheRunsTestCases(t *testing.T) {
	e := cmdtest.New(t)
	c := &api.Client{BaseURL: e.Getenv("TESTCTL_BASE_URL"), APIKey: sandbox.ProjectKey, Clock: e.Clock}
	started, err := c.StartRun(context.Background(), api.StartRunRequest{TestPlanShortID: sandbox.PlanFailing})
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	run := started.Run.ShortID
	r := e.Run("logs", run, "--kind", "api-calls", "--status", "errors").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, run+" is a run, not a test case of a run. Its test cases:\n",
		"  "+run+"-1  Log in with email and password  PASSED\n",
		"  "+run+"-2  Apply an expired coupon  FAILED\n",
		"  "+run+"-6  Receive the order confirmation email  SKIPPED\n",
		"Read one with: testctl logs "+run+"-2 --kind api-calls --status errors\n")
	if n := e.Requests("GET /v1/run/{shortId}"); n != 1 {
		t.Errorf("%d run requests, want 1", n)
	}
}

// An API test's browser logs are empty; the service's note names the
// kind to read as testctl spells it.
func TestAPITestNoteNamesTheFlag(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("logs", finishedTestCases(t, e)[health], "--kind", "network").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "read --kind api-calls.")
}
