package start_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/sandbox"
)

const postRun = "POST /v1/run"

func TestStartPlanPrintsIDAndURL(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox").Expect(t, 0)
	fields := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\t")
	if len(fields) != 2 || !strings.HasSuffix(fields[1], "/runs/"+fields[0]) {
		t.Fatalf("stdout %q, want SHORTID<TAB>URL", r.Stdout)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "✓ Started run "+fields[0]+" (5 tests): "+fields[1])
	if n := e.Requests(postRun); n != 1 {
		t.Errorf("%d POSTs", n)
	}
}

func TestStartQuietAndJSON(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "-q").Expect(t, 0)
	if strings.Count(r.Stdout, "\n") != 1 || strings.ContainsAny(strings.TrimSpace(r.Stdout), " \t/") {
		t.Errorf("-q stdout %q, want only the short id", r.Stdout)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Started run "+strings.TrimSpace(r.Stdout))

	r = e.Run("run", "start", "--plan", "pln-failing_sandbox", "-o", "json").Expect(t, 0)
	var resp api.StartRunResponse
	if err := json.Unmarshal([]byte(r.Stdout), &resp); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if !resp.Success || resp.Run.ShortID == "" || resp.Run.TestCount != 7 || resp.Run.TestPlan.ShortID != "pln-failing_sandbox" {
		t.Errorf("%+v", resp)
	}
}

func TestStartTestCases(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--test-case", sandbox.TestCaseLogin, "--test-case", sandbox.TestCaseSearch, "-o", "json").Expect(t, 0)
	var resp api.StartRunResponse
	if err := json.Unmarshal([]byte(r.Stdout), &resp); err != nil || resp.Run.TestCount != 2 || resp.Run.TestPlan != nil {
		t.Errorf("%v %+v", err, resp)
	}
}

func TestStartTTYAndPlainOutput(t *testing.T) {
	e := cmdtest.New(t)
	// On a terminal the id and URL are said once, with the next step.
	r := e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "start", "--plan", "pln-passing_sandbox", "--no-color").Expect(t, 0)
	out := r.Stdout + r.Stderr
	id := strings.Fields(out[strings.Index(out, "Started run ")+len("Started run "):])[0]
	url := "https://app.sandbox.testctl.invalid/runs/" + id
	if n := strings.Count(out, url); n != 1 {
		t.Errorf("the URL appears %d times on the terminal:\n%s", n, out)
	}
	if want := "✓ Started run " + id + " (5 tests): " + url + "\n  wait with: testctl run wait " + id + "\n"; r.Stderr != want || r.Stdout != "" {
		t.Errorf("terminal:\nstdout %q\nstderr %q\nwant stderr %q", r.Stdout, r.Stderr, want)
	}
	// The next step reaches the same service as the start did: the flags
	// that chose it are carried, the key never.
	r = e.RunWith(cmdtest.RunOptions{TTY: true}, "--base-url", e.Sandbox.BaseURL, "--api-key", "sandbox-project-key",
		"run", "start", "--plan", "pln-passing_sandbox", "--no-color").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "\n  wait with: testctl --base-url "+e.Sandbox.BaseURL+" run wait ")
	if strings.Contains(r.Stderr, "sandbox-project-key") {
		t.Errorf("the key is on stderr:\n%s", r.Stderr)
	}
	// The embedded sandbox ends with the command: nothing to wait for later.
	r = e.RunWith(cmdtest.RunOptions{TTY: true}, "--sandbox", "run", "start", "--plan", "pln-passing_sandbox", "--no-color").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "lived in this command's embedded sandbox", "or add --wait to see the verdict")
	if strings.Contains(r.Stderr, "wait with:") {
		t.Errorf("a wait command for a run that is gone:\n%s", r.Stderr)
	}
	// Off a terminal stdout keeps its data, SHORTID<TAB>URL, for scripts.
	r = e.Run("run", "start", "--plan", "pln-passing_sandbox").Expect(t, 0)
	if !strings.Contains(r.Stdout, "\thttps://") {
		t.Errorf("plain stdout %q, want tab-separated", r.Stdout)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestDryRunSendsNothingAndNeedsNoKey(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--dry-run", "--project", "proj-demo_sandbox").Expect(t, 0)
	want := "POST " + e.Sandbox.BaseURL + "/v1/run\nContent-Type: application/json\n\n{\n  \"testPlanShortId\": \"pln-passing_sandbox\",\n  \"projectShortId\": \"proj-demo_sandbox\"\n}\n"
	if r.Stdout != want {
		t.Errorf("stdout\n%s\nwant\n%s", r.Stdout, want)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "nothing was sent")
	if n := e.Requests(postRun); n != 0 {
		t.Errorf("%d POSTs", n)
	}
}

func TestAppSpecsReachTheBody(t *testing.T) {
	e := cmdtest.New(t)
	spec := "app_sandbox-web,env=env_sandbox-staging,url=https://pr-1.example.com/?a=1,2,name=PR 1,build=build_7,device=preset_sandbox-desktop"
	body := e.DryRun(t, cmdtest.RunOptions{}, "--plan", "pln-passing_sandbox", "--app", spec)
	// --dry-run shows the query's values as *** (a bypass token travels
	// there); ParseAppSpec's tests see the comma kept in the value.
	want := `[{"applicationShortId":"app_sandbox-web","devicePresetShortId":"preset_sandbox-desktop","environment":{"applicationBuildShortId":"build_7","name":"PR 1","shortId":"env_sandbox-staging","url":"https://pr-1.example.com/?a=***"}}]`
	if got := jsonOf(body["applications"]); got != want {
		t.Errorf("applications %s\nwant %s", got, want)
	}
	// The sandbox validates every id: the real request is accepted.
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--app", spec).Expect(t, 0)
}

func TestApplicationsAndParametersFiles(t *testing.T) {
	e := cmdtest.New(t)
	apps := e.WriteFile("apps.json", `[
  {"applicationShortId": "app_sandbox-web", "environment": {"shortId": "env_sandbox-staging", "url": "https://s.example.com"}}
]`)
	params := `{"configs": {"cfg_sandbox-admin": {"retries": 12345678901234567890}},
 "configsByEnvironment": {"5a4db000-0000-4000-8000-0000000e0001": {"cfg_sandbox-guest": {"x": true}}}}`
	body := e.DryRun(t, cmdtest.RunOptions{Stdin: params}, "--plan", "pln-passing_sandbox", "--applications", apps, "--parameters", "-")
	if got := jsonOf(body["applications"]); got != `[{"applicationShortId":"app_sandbox-web","environment":{"shortId":"env_sandbox-staging","url":"https://s.example.com"}}]` {
		t.Errorf("applications %s", got)
	}
	r := e.RunWith(cmdtest.RunOptions{Stdin: params}, "run", "start", "--plan", "pln-passing_sandbox", "--parameters", "-", "--dry-run")
	// Numbers keep every digit: the members are passed through, not reinterpreted.
	cmdtest.Contains(t, "stdout", r.Stdout, "12345678901234567890", `"configsByEnvironment"`)

	paramsFile := e.WriteFile("params.json", params)
	r = e.RunWith(cmdtest.RunOptions{Stdin: `[{"applicationShortId": "app_sandbox-web"}]`}, "run", "start",
		"--plan", "pln-passing_sandbox", "--applications", "-", "--parameters", paramsFile).Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "Started run")
}

func TestNotifyAndNoNotify(t *testing.T) {
	e := cmdtest.New(t)
	body := e.DryRun(t, cmdtest.RunOptions{}, "--plan", "pln-passing_sandbox", "--notify", "slack:#qa", "--notify", "email")
	if got := jsonOf(body["notifications"]); got != `[{"channel":"#qa","enabled":true,"type":"slack"},{"enabled":true,"type":"email"}]` {
		t.Errorf("notifications %s", got)
	}
	body = e.DryRun(t, cmdtest.RunOptions{}, "--plan", "pln-passing_sandbox", "--no-notify")
	if got := jsonOf(body["notifications"]); got != `[{"type":"none"}]` {
		t.Errorf("--no-notify %s", got)
	}
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--notify", "slack:#qa").Expect(t, 0)
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--no-notify").Expect(t, 0)
	// The service judges types it knows; its 400 is a usage error too.
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--notify", "pager").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "notifications[0].type")
}

// After a wait in the embedded sandbox the report's `testctl logs …` and
// `testctl run get …` lines lead nowhere once pasted: it says so once, with
// how to keep a sandbox; a later command's 404 says why the id is missing.
func TestEmbeddedSandboxSaysItsRunsAreGoneAfterAWait(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("--sandbox", "run", "start", "--plan", "pln-failing_sandbox", "--wait").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "testctl logs ", "which stopped with it: the commands printed above for it find nothing now.",
		"`testctl sandbox`", "TESTCTL_BASE_URL=http://127.0.0.1:8787", "testctl run start --plan pln-failing_sandbox --wait\n")
	if n := strings.Count(r.Stderr, "embedded sandbox"); n != 1 || strings.Contains(r.Stderr, "add --wait") {
		t.Errorf("the note is said %d times, or asks for the --wait it has:\n%s", n, r.Stderr)
	}
	r = e.Run("--sandbox", "run", "get", "r0a1b2").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "No run r0a1b2 in this project", "each command starts its own empty sandbox", "`testctl sandbox`")
	// Against a served sandbox the ids stay: no such note.
	r = e.Run("run", "get", "r0a1b2").Expect(t, 5)
	if strings.Contains(r.Stderr, "own empty sandbox") {
		t.Errorf("the sandbox note without --sandbox:\n%s", r.Stderr)
	}
}
