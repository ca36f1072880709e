package mcp

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/testctl/testctl/pkg/runwait"
	"github.com/testctl/testctl/pkg/verdict"
)

// The tools' arguments. Each becomes a command line of the tree: every
// value goes in as --flag=value, and the ids after "--", so no value an
// agent gives can be read as another flag (a plan named "--junit=/x").
// Everything the command checks before sending is checked as it is: bad
// input is a tool error naming the fix, and nothing is sent.

// StartRunInput are start_run's arguments.
type StartRunInput struct {
	Plans     []string `json:"plans,omitempty" jsonschema:"test plans to start, each its own run: short id (pln-checkout_a1b2 or pln_a1b2); give plans or test_cases"`
	TestCases []string `json:"test_cases,omitempty" jsonschema:"project test case UUIDs to run together in one run, instead of plans"`
	Apps      []string `json:"apps,omitempty" jsonschema:"application overrides, each app_ID[,env=env_ID][,url=URL][,name=NAME][,build=build_ID][,device=preset_ID], e.g. app_web,url=https://pr-42.preview.example.com"`
	Codehost  bool     `json:"codehost,omitempty" jsonschema:"attach the repository's code-host metadata (branch, commit, actor, message, repository) read from the CI environment or local git"`
	Wait      *bool    `json:"wait,omitempty" jsonschema:"wait for the verdict, with progress notifications (default true); false returns as soon as the runs exist"`
	Timeout   string   `json:"timeout,omitempty" jsonschema:"with wait: give up waiting after this long, a Go duration such as 10m (default 1h); the runs go on"`
	JUnit     string   `json:"junit,omitempty" jsonschema:"with wait: write a JUnit XML report to this path, relative to the server's working directory and inside it"`
	HTML      string   `json:"html,omitempty" jsonschema:"with wait: write a self-contained HTML report to this path, relative to the server's working directory and inside it"`
	CTRF      string   `json:"ctrf,omitempty" jsonschema:"with wait: write a CTRF (Common Test Report Format) JSON report to this path, relative to the server's working directory and inside it"`

	PassWithNoTests bool   `json:"pass_with_no_tests,omitempty" jsonschema:"with wait: let a run that ran no test case (an empty plan, every test case disabled) pass instead of failing"`
	IdempotencyKey  string `json:"idempotency_key,omitempty" jsonschema:"a key of yours (a UUID) that makes a retry safe: another call with the same key within an hour returns, or waits on, what the first created, and never creates again"`
}

// WaitRunInput are wait_run's arguments.
type WaitRunInput struct {
	RunIDs  []string `json:"run_ids" jsonschema:"short ids of the runs to wait for (r0a1b2)"`
	Timeout string   `json:"timeout,omitempty" jsonschema:"give up waiting after this long, a Go duration such as 10m (default 1h); the runs go on"`
	JUnit   string   `json:"junit,omitempty" jsonschema:"write a JUnit XML report to this path, relative to the working directory and inside it"`
	HTML    string   `json:"html,omitempty" jsonschema:"write a self-contained HTML report to this path, relative to the working directory and inside it"`
	CTRF    string   `json:"ctrf,omitempty" jsonschema:"write a CTRF (Common Test Report Format) JSON report to this path, relative to the working directory and inside it"`

	PassWithNoTests bool `json:"pass_with_no_tests,omitempty" jsonschema:"let a run that ran no test case (an empty plan, every test case disabled) pass instead of failing"`
}

// GetRunInput are get_run's arguments.
type GetRunInput struct {
	RunID     string `json:"run_id" jsonschema:"short id of the run (r0a1b2)"`
	TestCases string `json:"test_cases,omitempty" jsonschema:"which test cases: all (default) or failed (failed, skipped or errored)"`
	Issues    bool   `json:"issues,omitempty" jsonschema:"also return the issues detected during the run"`
}

// RunReportInput are run_report's arguments.
type RunReportInput struct {
	RunIDs   []string `json:"run_ids" jsonschema:"short ids of finished runs to report on"`
	Evidence *int     `json:"evidence,omitempty" jsonschema:"gather the evidence of at most this many test cases that did not pass (default 10, 0 off)"`
	JUnit    string   `json:"junit,omitempty" jsonschema:"write a JUnit XML report to this path, relative to the working directory and inside it"`
	HTML     string   `json:"html,omitempty" jsonschema:"write a self-contained HTML report to this path, relative to the working directory and inside it"`
	CTRF     string   `json:"ctrf,omitempty" jsonschema:"write a CTRF (Common Test Report Format) JSON report to this path, relative to the working directory and inside it"`

	PassWithNoTests bool `json:"pass_with_no_tests,omitempty" jsonschema:"let a run that ran no test case (an empty plan, every test case disabled) pass instead of failing"`
}

// ListRunsInput are list_runs' arguments.
type ListRunsInput struct {
	Plan    string `json:"plan,omitempty" jsonschema:"only runs of this test plan (short id)"`
	Status  string `json:"status,omitempty" jsonschema:"only runs in this status: INITIATED, RUNNING, COMPLETED, ERROR, CANCELLED"`
	Result  string `json:"result,omitempty" jsonschema:"only runs with this result: PASSED, FAILED, SKIPPED"`
	Branch  string `json:"branch,omitempty" jsonschema:"only runs of this branch"`
	Trigger string `json:"trigger,omitempty" jsonschema:"only runs started by this trigger: API, CODEHOST"`
	Limit   int    `json:"limit,omitempty" jsonschema:"runs to return, 1 to 50 (default 20)"`
	Offset  int    `json:"offset,omitempty" jsonschema:"runs to skip first, to page on"`
}

// RerunFailedInput are rerun_failed's arguments.
type RerunFailedInput struct {
	RunID     string   `json:"run_id" jsonschema:"short id of the run whose failed test cases to rerun"`
	TestCases []string `json:"test_cases,omitempty" jsonschema:"rerun these project test case UUIDs instead of the failed ones"`
	Wait      *bool    `json:"wait,omitempty" jsonschema:"wait for the new run's verdict, with progress notifications (default true)"`
	Timeout   string   `json:"timeout,omitempty" jsonschema:"with wait: give up waiting after this long, a Go duration (default 1h); the run goes on"`
	JUnit     string   `json:"junit,omitempty" jsonschema:"with wait: write a JUnit XML report to this path, relative to the working directory and inside it"`
	HTML      string   `json:"html,omitempty" jsonschema:"with wait: write a self-contained HTML report to this path, relative to the working directory and inside it"`
	CTRF      string   `json:"ctrf,omitempty" jsonschema:"with wait: write a CTRF (Common Test Report Format) JSON report to this path, relative to the working directory and inside it"`

	PassWithNoTests bool   `json:"pass_with_no_tests,omitempty" jsonschema:"with wait: let a run that ran no test case (an empty plan, every test case disabled) pass instead of failing"`
	IdempotencyKey  string `json:"idempotency_key,omitempty" jsonschema:"a key of yours (a UUID) that makes a retry safe: another call with the same key within an hour returns, or waits on, what the first created, and never creates again"`
}

// ListTestCasesInput are list_test_cases' arguments.
type ListTestCasesInput struct {
	App     string   `json:"app,omitempty" jsonschema:"only test cases of this application (app_ID)"`
	Enabled string   `json:"enabled,omitempty" jsonschema:"only enabled (true) or disabled (false) test cases"`
	Labels  []string `json:"labels,omitempty" jsonschema:"only test cases carrying any of these labels"`
	Limit   int      `json:"limit,omitempty" jsonschema:"test cases to return, 1 to 50 (default 20)"`
	Offset  int      `json:"offset,omitempty" jsonschema:"test cases to skip first, to page on"`
}

// CreateTestCaseInput are create_test_case's arguments.
type CreateTestCaseInput struct {
	App            string   `json:"app" jsonschema:"application to test (app_ID)"`
	Name           string   `json:"name" jsonschema:"name of the test case, 1 to 80 characters"`
	Goal           string   `json:"goal" jsonschema:"the objective the test must reach, in plain words"`
	ExpectedResult string   `json:"expected_result,omitempty" jsonschema:"what success looks like"`
	Configs        []string `json:"configs,omitempty" jsonschema:"configs made available to the test (cfg_ID)"`
	Scenario       string   `json:"scenario,omitempty" jsonschema:"scenario of the test (scenario_ID)"`
	ResumeFrom     string   `json:"resume_from,omitempty" jsonschema:"continue the browser session of this test case (UUID)"`
	WaitFor        []string `json:"wait_for,omitempty" jsonschema:"start only after these test cases passed (UUIDs)"`
	IdempotencyKey string   `json:"idempotency_key,omitempty" jsonschema:"a key of yours (a UUID) that makes a retry safe: another call with the same key within an hour returns, or waits on, what the first created, and never creates again"`
}

// GetLogsInput are get_logs' arguments.
type GetLogsInput struct {
	TestCaseRun string `json:"test_case_run" jsonschema:"short id of a run's test case, as the story names it (r7k2p9-3)"`
	Kind        string `json:"kind" jsonschema:"which log: network, console or api-calls"`
	Status      string `json:"status,omitempty" jsonschema:"network and api-calls: all (default), errors or success"`
	URL         string `json:"url,omitempty" jsonschema:"network and api-calls: only entries whose URL matches this case-insensitive regular expression"`
	Warnings    *bool  `json:"warnings,omitempty" jsonschema:"console: include warnings (default true; false leaves them out)"`
	Info        bool   `json:"info,omitempty" jsonschema:"console: include info messages"`
	Full        bool   `json:"full,omitempty" jsonschema:"api-calls: include headers and bodies"`
	Limit       int    `json:"limit,omitempty" jsonschema:"entries to return, 1 to 200 (default 50); narrow with status or url to see others"`
}

// TunnelStatusInput are tunnel_status' arguments.
type TunnelStatusInput struct {
	RunnerID string `json:"runner_id" jsonschema:"id of the tunnel runner (runner-ci-42)"`
}

// Bounds of the list tools' pages.
const (
	defaultLimit = 20
	maxLimit     = 50
	defaultLogs  = 50
	maxLogs      = 200
)

// addTools registers the tools; readOnly leaves out every one that starts,
// reruns or creates.
func (s *server) addTools(srv *mcp.Server, readOnly bool) {
	yes, no := true, false
	write := &mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &yes}
	// A read asked twice changes nothing: a client may retry it freely.
	read := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &yes}
	if !readOnly {
		mcp.AddTool(srv, &mcp.Tool{Name: "start_run", Annotations: write, Description: "Start test runs of plans (one run each) or of test case ids, " +
			"and by default wait for the verdict with a progress notification at each test case's end. Returns the verdict first, then, for " +
			"every test case that did not pass, its failure story (result, the evaluator's reasoning, failed requests, console errors, issues) " +
			"and what to call next. A start whose answer is lost is never doubled."}, s.startRun)
		mcp.AddTool(srv, &mcp.Tool{Name: "rerun_failed", Annotations: write, Description: "Rerun the test cases of a run that failed " +
			"(or the ones given) as a new run, and by default wait for its verdict, as start_run does: the step after a fix."}, s.rerunFailed)
		mcp.AddTool(srv, &mcp.Tool{Name: "create_test_case", Annotations: write, Description: "Create a test case of an application " +
			"from a name and a goal in plain words. It is created disabled: the text says how it is reviewed and enabled."}, s.createTestCase)
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "wait_run", Annotations: read, Description: "Wait for runs already started (by start_run with " +
		"wait false, a cancelled or timed-out wait, or CI) and return their verdict and the failure story, with progress notifications."}, s.waitRun)
	mcp.AddTool(srv, &mcp.Tool{Name: "get_run", Annotations: read, Description: "The current state of a run and its test cases, " +
		"without waiting; the verdict is given once the run ended."}, s.getRun)
	mcp.AddTool(srv, &mcp.Tool{Name: "run_report", Annotations: read, Meta: reportAppMeta(), Description: "The verdict of finished runs with the failure " +
		"story of every test case that did not pass (the evidence the terminal summary shows), and optional JUnit/HTML/CTRF files."}, s.runReport)
	mcp.AddTool(srv, &mcp.Tool{Name: "list_runs", Annotations: read, Description: "Recent runs, newest first, filtered by plan, " +
		"status, result, branch or trigger; a page of at most 50, with offset to page on."}, s.listRuns)
	mcp.AddTool(srv, &mcp.Tool{Name: "list_test_cases", Annotations: read, Description: "The project's test cases (ids, names, " +
		"goals, enabled or not, last run), filtered by application, labels or enabled; a page of at most 50."}, s.listTestCases)
	mcp.AddTool(srv, &mcp.Tool{Name: "get_logs", Annotations: read, Description: "The network requests, console messages or API " +
		"calls recorded while one test case of a run ran (its id as r7k2p9-3), filtered; at most 200 entries."}, s.getLogs)
	mcp.AddTool(srv, &mcp.Tool{Name: "tunnel_status", Annotations: read, Description: "Whether a tunnel runner (which lets the " +
		"service reach an app on a private network or localhost) is connected and healthy."}, s.tunnelStatus)
}

// waitArgs are the flags of a wait: its timeout and its report files.
func waitArgs(timeout, junit, html, ctrf string) ([]string, error) {
	var args []string
	if timeout != "" {
		args = append(args, "--timeout="+timeout)
	}
	for _, f := range []struct{ flag, path string }{{"junit", junit}, {"html", html}, {"ctrf", ctrf}} {
		if f.path == "" {
			continue
		}
		if err := checkReportPath(f.flag, f.path); err != nil {
			return nil, err
		}
		args = append(args, "--"+f.flag+"="+f.path)
	}
	return args, nil
}

func each(flag string, values []string) []string {
	out := make([]string, 0, len(values))
	for _, v := range values {
		out = append(out, "--"+flag+"="+v)
	}
	return out
}

// passWithNoTests is the flag of the tools' pass_with_no_tests.
func passWithNoTests(on bool) []string {
	if on {
		return []string{"--pass-with-no-tests"}
	}
	return nil
}

func optional(flag, value string) []string {
	if value == "" {
		return nil
	}
	return []string{"--" + flag + "=" + value}
}

func limitArg(flag string, n, def, max int) ([]string, error) {
	if n == 0 {
		n = def
	}
	if n < 1 || n > max {
		return nil, fmt.Errorf("limit must be 1 to %d, not %d: page on with offset", max, n)
	}
	return []string{"--" + flag + "=" + strconv.Itoa(n)}, nil
}

func (s *server) startRun(ctx context.Context, req *mcp.CallToolRequest, in StartRunInput) (*mcp.CallToolResult, Result, error) {
	if len(in.Plans) == 0 && len(in.TestCases) == 0 {
		return usage("give plans or test_cases: list_runs shows the plans of recent runs, list_test_cases the test case ids")
	}
	// An agent's start is its own: never the take-up of an earlier CI
	// attempt's run, even when the server runs in a retried CI job.
	args := slices.Concat([]string{"run", "start", "--ci-retry=all"}, each("plan", in.Plans), each("test-case", in.TestCases), each("app", in.Apps))
	if in.Codehost {
		args = append(args, "--codehost")
	}
	if in.Wait != nil && !*in.Wait && in.PassWithNoTests {
		return usage("pass_with_no_tests goes with wait: drop it or set wait to true")
	}
	k := startKind
	var wait []string
	if in.Wait == nil || *in.Wait {
		w, err := waitArgs(in.Timeout, in.JUnit, in.HTML, in.CTRF)
		if err != nil {
			return usage(err.Error())
		}
		wait = slices.Concat(w, passWithNoTests(in.PassWithNoTests))
		args = slices.Concat(args, []string{"--wait"}, wait)
		k = verdictKind
	} else if in.Timeout != "" || in.JUnit != "" || in.HTML != "" || in.CTRF != "" {
		return usage("timeout, junit, html and ctrf go with wait: drop them or set wait to true")
	}
	what, all := in.identity()
	return s.withReports(time.Now(), in.JUnit, in.HTML, in.CTRF)(s.create(ctx, req, creatingCall{tool: "start_run", key: in.IdempotencyKey, what: what, all: all,
		expect: max(len(in.Plans), 1), wait: k == verdictKind, waitArgs: wait, args: args, k: k}))
}

func (s *server) rerunFailed(ctx context.Context, req *mcp.CallToolRequest, in RerunFailedInput) (*mcp.CallToolResult, Result, error) {
	args := []string{"run", "rerun"}
	if len(in.TestCases) > 0 {
		args = append(args, each("test-case", in.TestCases)...)
	} else {
		args = append(args, "--failed-only")
	}
	k := startKind
	var wait []string
	if in.Wait == nil || *in.Wait {
		w, err := waitArgs(in.Timeout, in.JUnit, in.HTML, in.CTRF)
		if err != nil {
			return usage(err.Error())
		}
		wait = slices.Concat(w, passWithNoTests(in.PassWithNoTests))
		args = slices.Concat(args, []string{"--wait"}, wait)
		k = verdictKind
	}
	what, all := in.identity()
	return s.withReports(time.Now(), in.JUnit, in.HTML, in.CTRF)(s.create(ctx, req, creatingCall{tool: "rerun_failed", key: in.IdempotencyKey, what: what, all: all,
		expect: 1, wait: k == verdictKind, waitArgs: wait, args: append(args, "--", in.RunID), k: k}))
}

func (s *server) waitRun(ctx context.Context, req *mcp.CallToolRequest, in WaitRunInput) (*mcp.CallToolResult, Result, error) {
	if len(in.RunIDs) == 0 {
		return usage("give run_ids: the short ids start_run returned, or list_runs shows")
	}
	w, err := waitArgs(in.Timeout, in.JUnit, in.HTML, in.CTRF)
	if err != nil {
		return usage(err.Error())
	}
	return s.withReports(time.Now(), in.JUnit, in.HTML, in.CTRF)(s.call(ctx, req,
		slices.Concat([]string{"run", "wait"}, w, passWithNoTests(in.PassWithNoTests), []string{"--"}, in.RunIDs), verdictKind, in.RunIDs, nil))
}

func (s *server) getRun(ctx context.Context, req *mcp.CallToolRequest, in GetRunInput) (*mcp.CallToolResult, Result, error) {
	args := slices.Concat([]string{"run", "get"}, optional("test-cases", in.TestCases))
	if in.Issues {
		args = append(args, "--issues")
	}
	more := func(field string, kept, total int) string {
		return "get_run with test_cases \"failed\" returns only those that did not pass"
	}
	inv := s.invoke(ctx, append(args, "--", in.RunID), nil)
	res, out := s.build(inv, readKind, []string{in.RunID}, more)
	// "run wait would exit N" is decided as the wait decides it.
	vo, err := runwait.DefaultVerdictOptions(ctx, s.f.Clock.Now())
	if err != nil {
		vo = verdict.Options{Now: s.f.Clock.Now()} // the wait would refuse the file: its call says why
	}
	// The failed test cases alone cannot tell a run that ran none.
	vo.PassWithNoTests = vo.PassWithNoTests || strings.EqualFold(in.TestCases, "failed")
	if head := runState(inv.stdout, vo); head != "" && !res.IsError {
		tc := res.Content[0].(*mcp.TextContent)
		first, rest, _ := strings.Cut(tc.Text, "\n")
		tc.Text = first + "\n" + s.redact(head) + "\n" + rest
	}
	return res, out, nil
}

func (s *server) runReport(ctx context.Context, req *mcp.CallToolRequest, in RunReportInput) (*mcp.CallToolResult, Result, error) {
	if len(in.RunIDs) == 0 {
		return usage("give run_ids: the short ids of finished runs (list_runs shows them)")
	}
	w, err := waitArgs("", in.JUnit, in.HTML, in.CTRF)
	if err != nil {
		return usage(err.Error())
	}
	args := slices.Concat([]string{"run", "report"}, w, passWithNoTests(in.PassWithNoTests))
	if in.Evidence != nil {
		args = append(args, "--evidence="+strconv.Itoa(*in.Evidence))
	}
	return s.withReports(time.Now(), in.JUnit, in.HTML, in.CTRF)(s.call(ctx, req, slices.Concat(args, []string{"--"}, in.RunIDs), verdictKind, in.RunIDs, nil))
}

func (s *server) listRuns(ctx context.Context, req *mcp.CallToolRequest, in ListRunsInput) (*mcp.CallToolResult, Result, error) {
	limit, err := limitArg("limit", in.Limit, defaultLimit, maxLimit)
	if err != nil {
		return usage(err.Error())
	}
	args := slices.Concat([]string{"run", "list"}, limit, optional("plan", in.Plan), optional("status", in.Status),
		optional("result", in.Result), optional("branch", in.Branch), optional("trigger", in.Trigger))
	if in.Offset != 0 {
		args = append(args, "--offset="+strconv.Itoa(in.Offset))
	}
	return s.call(ctx, req, args, readKind, nil, pageOn("list_runs", in.Offset))
}

func (s *server) listTestCases(ctx context.Context, req *mcp.CallToolRequest, in ListTestCasesInput) (*mcp.CallToolResult, Result, error) {
	limit, err := limitArg("limit", in.Limit, defaultLimit, maxLimit)
	if err != nil {
		return usage(err.Error())
	}
	args := slices.Concat([]string{"testcase", "list"}, limit, optional("app", in.App), optional("enabled", in.Enabled), each("label", in.Labels))
	if in.Offset != 0 {
		args = append(args, "--offset="+strconv.Itoa(in.Offset))
	}
	return s.call(ctx, req, args, readKind, nil, pageOn("list_test_cases", in.Offset))
}

func (s *server) createTestCase(ctx context.Context, req *mcp.CallToolRequest, in CreateTestCaseInput) (*mcp.CallToolResult, Result, error) {
	args := slices.Concat([]string{"testcase", "create", "--app=" + in.App, "--name=" + in.Name, "--goal=" + in.Goal},
		optional("expected-result", in.ExpectedResult), each("config", in.Configs), optional("scenario", in.Scenario),
		optional("resume-from", in.ResumeFrom), each("wait-for", in.WaitFor))
	what, all := in.identity()
	return s.create(ctx, req, creatingCall{tool: "create_test_case", key: in.IdempotencyKey, what: what, all: all, args: args, k: readKind})
}

func (s *server) getLogs(ctx context.Context, req *mcp.CallToolRequest, in GetLogsInput) (*mcp.CallToolResult, Result, error) {
	n := in.Limit
	if n == 0 {
		n = defaultLogs
	}
	if n < 1 || n > maxLogs {
		return usage(fmt.Sprintf("limit must be 1 to %d, not %d: narrow the log with status or url", maxLogs, n))
	}
	args := slices.Concat([]string{"logs", "--kind=" + in.Kind}, optional("status", in.Status), optional("url", in.URL))
	if in.Warnings != nil {
		args = append(args, "--warnings="+strconv.FormatBool(*in.Warnings))
	}
	for _, f := range []struct {
		flag string
		on   bool
	}{{"info", in.Info}, {"full", in.Full}} {
		if f.on {
			args = append(args, "--"+f.flag)
		}
	}
	return s.callKeep(ctx, req, append(args, "--", in.TestCaseRun), n, func(string, int, int) string {
		return "get_logs with a larger limit (at most 200), or narrowed by status or url, shows others"
	})
}

func (s *server) tunnelStatus(ctx context.Context, req *mcp.CallToolRequest, in TunnelStatusInput) (*mcp.CallToolResult, Result, error) {
	return s.call(ctx, req, []string{"tunnel", "status", "--", in.RunnerID}, readKind, nil, nil)
}

// pageOn names the call with the next offset.
func pageOn(tool string, offset int) moreFunc {
	return func(field string, kept, total int) string {
		return fmt.Sprintf("call %s with offset %d (and a smaller limit) for the rest", tool, offset+kept)
	}
}

// usage is a bad argument caught before the command runs: a tool error,
// exit 2 as the command's own checks give, nothing sent.
func usage(msg string) (*mcp.CallToolResult, Result, error) {
	res := Result{Verdict: "usage", ExitCode: 2}
	text := "Verdict: usage (exit code 2).\n\nerror: " + strings.TrimSpace(msg) + "\n\nNext: fix the argument and call again: nothing was sent.\n"
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, res, nil
}
