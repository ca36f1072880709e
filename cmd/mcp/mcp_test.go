package mcp_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpcmd "github.com/testctl/testctl/cmd/mcp"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
)

// agent is an MCP client connected to a testctl server over the SDK's
// in-memory transport, against the Env's sandbox on its fake clock.
type agent struct {
	cs *mcp.ClientSession

	mu       sync.Mutex
	progress []string
	onFirst  func()
}

func connect(t *testing.T, e *cmdtest.Env, readOnly bool) *agent {
	t.Helper()
	return connectOn(t, context.Background(), e, readOnly)
}

// connectOn is connect with the server's own context: a signal ends it.
func connectOn(t *testing.T, serverCtx context.Context, e *cmdtest.Env, readOnly bool) *agent {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	srv := mcpcmd.NewServer(serverCtx, e.Factory(t, ios), root.Run, readOnly)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	a := &agent{}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			a.mu.Lock()
			a.progress = append(a.progress, r.Params.Message)
			first := a.onFirst
			a.onFirst = nil
			a.mu.Unlock()
			if first != nil {
				first()
			}
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	a.cs = cs
	return a
}

// result is a tool's answer as an agent reads it.
type result struct {
	text    string
	isError bool
	data    mcpcmd.Result
}

func (a *agent) call(t *testing.T, ctx context.Context, tool string, args map[string]any) result {
	t.Helper()
	p := &mcp.CallToolParams{Name: tool, Arguments: args}
	p.SetProgressToken("tok-" + tool)
	res, err := a.cs.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var r result
	r.isError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			r.text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &r.data); err != nil {
			t.Fatalf("%s: structured content: %v", tool, err)
		}
	}
	return r
}

func (a *agent) progressLines() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.progress)
}

var writeTools = []string{"start_run", "rerun_failed", "create_test_case"}

func TestToolsListedWithSchemas(t *testing.T) {
	e := cmdtest.New(t)
	for _, readOnly := range []bool{false, true} {
		a := connect(t, e, readOnly)
		res, err := a.cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
				t.Errorf("%s: a tool needs input and output schemas and a description", tool.Name)
			}
		}
		want := []string{"get_logs", "get_run", "list_runs", "list_test_cases", "run_report", "tunnel_status", "wait_run"}
		if !readOnly {
			want = append(want, writeTools...)
		}
		slices.Sort(want)
		if !slices.Equal(names, want) {
			t.Errorf("read-only %v: tools %v, want %v", readOnly, names, want)
		}
	}
}

// TestFailingPlanTellsTheStory: start_run waits, reports progress at each
// test case's end, and returns the verdict first and the failure story,
// the same as `run report` of the same run.
func TestFailingPlanTellsTheStory(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	r := a.call(t, context.Background(), "start_run", map[string]any{"plans": []string{"pln-failing_sandbox"}})
	if r.isError || r.data.Verdict != "failed" || r.data.ExitCode != 1 {
		t.Fatalf("verdict %q code %d isError %v:\n%s", r.data.Verdict, r.data.ExitCode, r.isError, r.text)
	}
	if !strings.HasPrefix(r.text, "Verdict: failed (exit code 1).") {
		t.Errorf("the text must open with the verdict:\n%s", r.text)
	}
	cmdtest.Contains(t, "text", r.text, "Apply an expired coupon", "Expired coupon SPRING-2019 was accepted",
		"issue CRITICAL: Payment step goes blank on a declined card", "POST /api/payments 502", "rerun_failed")
	if len(r.data.RunIDs) != 1 {
		t.Fatalf("run ids %v", r.data.RunIDs)
	}
	id := r.data.RunIDs[0]
	doc, _ := r.data.Data.(map[string]any)
	if doc["shortId"] != id || doc["result"] != "FAILED" {
		t.Errorf("data is not the run's -o json document: %v", doc["shortId"])
	}
	ends := 0
	for _, line := range a.progressLines() {
		if strings.HasPrefix(line, " ") {
			t.Errorf("progress carries the story's indented line %q: it belongs in the result", line)
		}
		if strings.HasPrefix(line, "run "+id+" ") && strings.Contains(line, " — ") {
			ends++
		}
	}
	if ends != 7 {
		t.Errorf("%d progress notifications of a test case's end, want 7: %q", ends, a.progressLines())
	}

	// The same outcome as every other report of the run.
	cli := e.Run("run", "report", id)
	rep := a.call(t, context.Background(), "run_report", map[string]any{"run_ids": []string{id}})
	if rep.data.ExitCode != cli.Code || rep.data.Verdict != "failed" {
		t.Errorf("run_report: code %d, the command's %d", rep.data.ExitCode, cli.Code)
	}
	for line := range strings.Lines(cli.Stderr) {
		if strings.Contains(line, "testctl ") {
			continue // a next step, which names a tool there (TestNextStepsNameTools)
		}
		if !strings.Contains(rep.text, strings.TrimRight(line, "\n")) {
			t.Errorf("run_report's text lacks the command's line %q", line)
		}
	}
}

// TestBadArgumentSendsNothing: an argument the command refuses, or one
// that would be read as a flag, is a tool error naming the fix, and no
// request reaches the service.
func TestBadArgumentSendsNothing(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"start_run", map[string]any{"plans": []string{"--junit=/tmp/x.xml"}}, "plan"},
		{"start_run", map[string]any{"plans": []string{"pln-failing_sandbox"}, "junit": "../out.xml"}, "inside the working directory"},
		{"start_run", map[string]any{"plans": []string{"pln-failing_sandbox"}, "timeout": "soon"}, "timeout"},
		{"start_run", map[string]any{}, "give plans or test_cases"},
		{"start_run", map[string]any{"plans": "pln-failing_sandbox"}, "plans"},
		{"create_test_case", map[string]any{"app": "app_sandbox-web", "name": strings.Repeat("n", 81), "goal": "g"}, "80"},
		{"wait_run", map[string]any{"run_ids": []string{"../runs"}}, "run"},
		// An id that would be read as a flag: the report written outside
		// the working directory.
		{"wait_run", map[string]any{"run_ids": []string{"rd345t", "--junit=../escape.xml"}}, "--junit=../escape.xml"},
		{"list_runs", map[string]any{"limit": 500}, "limit must be 1 to 50"},
		{"get_logs", map[string]any{"test_case_run": "rd345t-2", "kind": "video"}, "kind"},
	} {
		r := a.call(t, context.Background(), c.tool, c.args)
		if !r.isError || !strings.Contains(r.text, c.want) {
			t.Errorf("%s %v: isError %v, want an error naming %q:\n%s", c.tool, c.args, r.isError, c.want, r.text)
		}
	}
	for _, route := range []string{"POST /v1/run", "POST /v1/test-cases", cmdtest.GetRun, "GET /v1/runs"} {
		if n := e.Requests(route); n != 0 {
			t.Errorf("%d requests of %s after bad arguments", n, route)
		}
	}
}

// TestCancelledWaitEndsAtOnce: the client cancels the request while the
// wait goes on; the wait ends, the run does not, and wait_run resumes it.
func TestCancelledWaitEndsAtOnce(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	started := a.call(t, context.Background(), "start_run", map[string]any{"plans": []string{"pln-slow_sandbox"}, "wait": false})
	if started.isError || started.data.Verdict != "started" || len(started.data.RunIDs) != 1 {
		t.Fatalf("start without waiting: %+v\n%s", started.data, started.text)
	}
	cmdtest.Contains(t, "text", started.text, "wait_run")
	id := started.data.RunIDs[0]
	begin := e.Clock.Now()

	ctx, cancel := context.WithCancel(context.Background())
	a.mu.Lock()
	a.onFirst = cancel
	a.mu.Unlock()
	p := &mcp.CallToolParams{Name: "wait_run", Arguments: map[string]any{"run_ids": []string{id}, "timeout": "2h"}}
	p.SetProgressToken("wait")
	if _, err := a.cs.CallTool(ctx, p); err == nil {
		t.Fatal("a cancelled call returned a result")
	}
	got := a.call(t, context.Background(), "get_run", map[string]any{"run_id": id})
	doc, _ := got.data.Data.(map[string]any)
	if doc["status"] == "COMPLETED" || e.ElapsedSince(begin) >= time.Hour {
		t.Errorf("the cancelled wait went on to the run's end: status %v after %s", doc["status"], e.ElapsedSince(begin))
	}
	// The run went on, and a new wait takes it up to its verdict.
	r := a.call(t, context.Background(), "wait_run", map[string]any{"run_ids": []string{id}, "timeout": "2h"})
	if r.isError || r.data.Verdict != "passed" {
		t.Errorf("resumed wait: %+v\n%s", r.data, r.text)
	}
}

// TestASignalEndsAToolsWait: a SIGTERM to the server (a client that stops
// it) ends a call's wait as it ends a command's: at once, with 143 and how
// to resume, not at the wait's --timeout.
func TestASignalEndsAToolsWait(t *testing.T) {
	e := cmdtest.New(t)
	serverCtx, signal := context.WithCancelCause(context.Background())
	a := connectOn(t, serverCtx, e, false)
	id := e.StartRun(t, "pln-slow_sandbox")
	begin := e.Clock.Now()
	a.mu.Lock()
	a.onFirst = func() { signal(cmdutil.ErrTerminated) }
	a.mu.Unlock()
	r := a.call(t, context.Background(), "wait_run", map[string]any{"run_ids": []string{id}, "timeout": "2h"})
	if r.data.Verdict != "terminated" || r.data.ExitCode != 143 || e.ElapsedSince(begin) >= time.Hour {
		t.Errorf("after SIGTERM: verdict %q, exit %d, after %s of the run; want terminated, 143, at once\n%s",
			r.data.Verdict, r.data.ExitCode, e.ElapsedSince(begin), r.text)
	}
	cmdtest.Contains(t, "text", r.text, "wait_run")
}

// TestTimeoutSaysHowToResume: the timeout argument bounds the wait; the
// result is not an error and names wait_run with the run.
func TestTimeoutSaysHowToResume(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	id := e.StartRun(t, "pln-slow_sandbox")
	r := a.call(t, context.Background(), "wait_run", map[string]any{"run_ids": []string{id}, "timeout": "1m"})
	if r.isError || r.data.Verdict != "timeout" || r.data.ExitCode != 7 {
		t.Fatalf("%+v\n%s", r.data, r.text)
	}
	cmdtest.Contains(t, "text", r.text, `wait_run {"run_ids": ["`+id+`"]}`)
}

// TestRerunFailed: the step after a fix reruns only what did not pass.
func TestRerunFailed(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	id := e.StartRun(t, "pln-failing_sandbox")
	a.call(t, context.Background(), "wait_run", map[string]any{"run_ids": []string{id}})
	r := a.call(t, context.Background(), "rerun_failed", map[string]any{"run_id": id})
	if r.isError || len(r.data.RunIDs) != 1 || r.data.RunIDs[0] == id {
		t.Fatalf("%+v\n%s", r.data, r.text)
	}
	doc, _ := r.data.Data.(map[string]any)
	cases, _ := doc["runTestCases"].([]any)
	if len(cases) == 0 || len(cases) >= 7 {
		t.Errorf("the rerun ran %d test cases, want only those that did not pass", len(cases))
	}
}

// TestLostStartIsNotDoubled: start_run handles a lost answer as run start
// does: the run the start created is adopted, not started again.
func TestLostStartIsNotDoubled(t *testing.T) {
	e := cmdtest.New(t)
	runs := func() int {
		list := e.Run("run", "list", "--plan", "pln-passing_sandbox", "--all", "-o", "json").Expect(t, 0)
		return strings.Count(list.Stdout, `"shortId"`)
	}
	before := runs()
	e.FaultWrites("POST /v1/run", cmdtest.LoseAnswer)
	a := connect(t, e, false)
	r := a.call(t, context.Background(), "start_run", map[string]any{"plans": []string{"pln-passing_sandbox"}})
	if r.isError || r.data.Verdict != "passed" {
		t.Fatalf("%+v\n%s", r.data, r.text)
	}
	if n := runs() - before; n != 1 {
		t.Errorf("%d new runs of the plan after one lost start, want 1", n)
	}
	if n := e.Requests("POST /v1/run"); n != 1 {
		t.Errorf("the start was sent %d times, want once", n)
	}
}

func TestReadTools(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, true)
	ctx := context.Background()
	id := e.StartRun(t, "pln-failing_sandbox")
	a.call(t, ctx, "wait_run", map[string]any{"run_ids": []string{id}})

	runs := a.call(t, ctx, "list_runs", map[string]any{"limit": 2})
	page, _ := runs.data.Data.(map[string]any)
	if list, _ := page["runs"].([]any); runs.isError || len(list) == 0 || len(list) > 2 {
		t.Errorf("list_runs: %+v\n%s", runs.data, runs.text)
	}
	cases := a.call(t, ctx, "list_test_cases", map[string]any{"app": "app_sandbox-web", "limit": 3})
	if page, _ := cases.data.Data.(map[string]any); cases.isError || len(page["testCases"].([]any)) != 3 {
		t.Errorf("list_test_cases: %s", cases.text)
	}
	logs := a.call(t, ctx, "get_logs", map[string]any{"test_case_run": id + "-3", "kind": "network", "limit": 2})
	if logs.isError || !strings.Contains(logs.data.Cut, "kept the first 2") || !strings.Contains(logs.text, "get_logs") {
		t.Errorf("get_logs is bounded and says so: %+v\n%s", logs.data.Cut, logs.text)
	}
	// The console log has its warnings unless told not to, as logs has.
	for _, tc := range []struct {
		args map[string]any
		want bool
	}{{map[string]any{}, true}, {map[string]any{"warnings": true}, true}, {map[string]any{"warnings": false}, false}} {
		tc.args["test_case_run"], tc.args["kind"] = id+"-3", "console"
		r := a.call(t, ctx, "get_logs", tc.args)
		doc, _ := json.Marshal(r.data.Data)
		if got := strings.Contains(string(doc), `"level":"warning"`); r.isError || got != tc.want {
			t.Errorf("get_logs %v: warnings %v, want %v\n%s", tc.args, got, tc.want, r.text)
		}
	}
	tunnel := a.call(t, ctx, "tunnel_status", map[string]any{"runner_id": "runner-healthy"})
	if tunnel.isError || tunnel.data.Verdict != "ok" {
		t.Errorf("tunnel_status: %s", tunnel.text)
	}
	failed := a.call(t, ctx, "get_run", map[string]any{"run_id": id, "test_cases": "failed"})
	if failed.isError || failed.data.Data == nil || !strings.Contains(failed.text, "Run "+id+": COMPLETED · FAILED — 2 failed · 1 skipped. Its verdict: failed (run wait would exit 1)") {
		t.Errorf("get_run: %s", failed.text)
	}
	going := e.StartRun(t, "pln-slow_sandbox")
	if r := a.call(t, ctx, "get_run", map[string]any{"run_id": going}); !strings.Contains(r.text, "It goes on: call wait_run") {
		t.Errorf("get_run of a run that goes on: %s", r.text)
	}
	missing := a.call(t, ctx, "get_run", map[string]any{"run_id": "rzzzzz"})
	if !missing.isError || missing.data.Verdict != "not-found" {
		t.Errorf("get_run of no run: %+v %s", missing.data, missing.text)
	}
}

func TestCreateTestCaseExplainsDisabled(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	r := a.call(t, context.Background(), "create_test_case", map[string]any{
		"app": "app_sandbox-web", "name": "Apply a coupon", "goal": "Apply coupon SPRING-2025 at checkout and see the discount"})
	cli := e.Run("testcase", "create", "--app", "app_sandbox-web", "--name", "Apply a coupon 2", "--goal", "Apply a coupon").Expect(t, 0)
	if r.isError || !strings.Contains(strings.ToLower(r.text), "disabled") || !strings.Contains(strings.ToLower(cli.Stderr), "disabled") {
		t.Errorf("the created-disabled explanation:\n%s\nthe command's:\n%s", r.text, cli.Stderr)
	}
}

// TestReadOnlyRefusesWrites: a read-only server has no tool that writes,
// and a client that calls one anyway is refused with nothing sent.
func TestReadOnlyRefusesWrites(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, true)
	for _, tool := range writeTools {
		_, err := a.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{
			"plans": []string{"pln-passing_sandbox"}, "run_id": "rd345t", "app": "app_sandbox-web", "name": "n", "goal": "g"}})
		if err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("%s on a read-only server: %v", tool, err)
		}
	}
	if n := e.Requests("POST /v1/run") + e.Requests("POST /v1/test-cases"); n != 0 {
		t.Errorf("%d writes reached the service", n)
	}
}

// TestStartRunCodehostAndApps: codehost attaches the CI's metadata when
// asked, and apps override an application, as run start's flags do.
func TestStartRunCodehostAndApps(t *testing.T) {
	e := cmdtest.New(t)
	for k, v := range map[string]string{"GITLAB_CI": "true", "GITLAB_USER_LOGIN": "jdoe", "CI_COMMIT_BRANCH": "agent-fix",
		"CI_COMMIT_SHA": "2222222", "CI_COMMIT_MESSAGE": "Reject expired coupons", "CI_PROJECT_PATH": "acme/shop"} {
		e.Setenv(k, v)
	}
	a := connect(t, e, false)
	r := a.call(t, context.Background(), "start_run", map[string]any{"plans": []string{"pln-passing_sandbox"}, "codehost": true,
		"apps": []string{"app_sandbox-web,url=https://pr-42.preview.example.com"}, "wait": false})
	if r.isError || len(r.data.RunIDs) != 1 {
		t.Fatalf("%+v\n%s", r.data, r.text)
	}
	list := e.Run("run", "list", "--branch", "agent-fix", "-o", "json").Expect(t, 0)
	cmdtest.Contains(t, "the run list", list.Stdout, r.data.RunIDs[0], `"trigger": "CODEHOST"`, `"commitHash": "2222222"`)

	bad := a.call(t, context.Background(), "start_run", map[string]any{"plans": []string{"pln-passing_sandbox"},
		"apps": []string{"web,url=https://x.example.com"}})
	if !bad.isError || bad.data.ExitCode != 2 {
		t.Errorf("a malformed app override: %+v\n%s", bad.data, bad.text)
	}
}

// A run that ran no test case fails the verdict, as `run wait` decides it,
// unless pass_with_no_tests; get_run's "run wait would exit" agrees.
func TestRunWithNoTestCase(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	ctx := context.Background()
	id := e.StartRun(t, "pln-empty_sandbox")
	r := a.call(t, ctx, "wait_run", map[string]any{"run_ids": []string{id}})
	if r.isError || r.data.Verdict != "failed" || r.data.ExitCode != 1 {
		t.Fatalf("wait_run: %+v\n%s", r.data, r.text)
	}
	cmdtest.Contains(t, "text", r.text, "ran no test case")
	r = a.call(t, ctx, "wait_run", map[string]any{"run_ids": []string{id}, "pass_with_no_tests": true})
	if r.isError || r.data.Verdict != "passed" || r.data.ExitCode != 0 {
		t.Errorf("wait_run with pass_with_no_tests: %+v\n%s", r.data, r.text)
	}
	if r := a.call(t, ctx, "run_report", map[string]any{"run_ids": []string{id}, "pass_with_no_tests": true}); r.data.ExitCode != 0 {
		t.Errorf("run_report with pass_with_no_tests: %+v\n%s", r.data, r.text)
	}
	cmdtest.Contains(t, "get_run", a.call(t, ctx, "get_run", map[string]any{"run_id": id}).text, "(run wait would exit 1)")
	r = a.call(t, ctx, "start_run", map[string]any{"plans": []string{"pln-empty_sandbox"}, "pass_with_no_tests": true})
	if r.isError || r.data.ExitCode != 0 {
		t.Errorf("start_run with pass_with_no_tests: %+v\n%s", r.data, r.text)
	}
	if r := a.call(t, ctx, "start_run", map[string]any{"plans": []string{"pln-empty_sandbox"}, "wait": false, "pass_with_no_tests": true}); !r.isError {
		t.Errorf("start_run without wait took pass_with_no_tests:\n%s", r.text)
	}
}
