package integrations_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/sandbox"
)

const testKey = "sandbox-project-key"

// sandboxInputs are the inputs of a job that runs plan against the sandbox
// on the served release, polling fast (loopback allows under a second).
func sandboxInputs(rel *release, sb *sandbox.Instance, plan string) map[string]string {
	return map[string]string{
		"plan": plan, "version": releaseVersion, "download-base-url": rel.URL,
		"base-url": sb.BaseURL, "api-key": testKey, "interval": "100ms",
	}
}

// runActionWith runs the action, as a fresh tool cache has it, on a new
// release and sandbox, with sandboxInputs' inputs for plan and inputs over them.
func runActionWith(t *testing.T, plan string, inputs map[string]string) actionResult {
	t.Helper()
	in := sandboxInputs(newRelease(t), startSandbox(t), plan)
	for k, v := range inputs {
		in[k] = v
	}
	return runAction(t, actionJob{Inputs: in, ToolCache: t.TempDir()})
}

func TestActionPassFailAndCache(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	cache := t.TempDir()

	pass := runAction(t, actionJob{Inputs: sandboxInputs(rel, sb, "pln-passing_sandbox"), ToolCache: cache})
	if pass.Code != 0 {
		t.Fatalf("passing plan: exit %d, want 0\n%s", pass.Code, pass.Log)
	}
	wantOutputs(t, pass, map[string]string{"verdict": "passed", "exit-code": "0", "junit": "testctl-junit.xml", "html": "testctl-report.html"})
	if id := pass.Outputs["run-short-id"]; id == "" || !strings.Contains(pass.Outputs["run-url"], id) {
		t.Errorf("run-short-id %q, run-url %q: want the run's id and its URL", id, pass.Outputs["run-url"])
	}
	var runs []struct{ ShortID, Status, Result string }
	if err := json.Unmarshal([]byte(pass.Outputs["runs-json"]), &runs); err != nil || len(runs) != 1 || runs[0].Result != "PASSED" {
		t.Errorf("runs-json %q: want one PASSED run (%v)", pass.Outputs["runs-json"], err)
	}
	if _, err := os.Stat(filepath.Join(pass.Workspace, "testctl-report.html")); err != nil {
		t.Errorf("the HTML report was not written by default: %v", err)
	}
	if _, err := os.Stat(filepath.Join(pass.Workspace, "testctl-junit.xml")); err != nil {
		t.Errorf("JUnit report: %v", err)
	}
	if !strings.Contains(pass.Summary, pass.Outputs["run-short-id"]) {
		t.Errorf("the step summary does not name the run:\n%s", pass.Summary)
	}
	if !containsPath(pass.Path, filepath.Join(cache, "testctl", releaseVersion)) {
		t.Errorf("GITHUB_PATH %v: want the tool cache's testctl for later steps", pass.Path)
	}
	downloads := rel.requests.Load()
	if downloads != 2 {
		t.Errorf("first job made %d requests to the release server, want 2 (archive, checksums.txt)", downloads)
	}

	fail := runAction(t, actionJob{Inputs: sandboxInputs(rel, sb, "pln-failing_sandbox"), ToolCache: cache})
	if fail.Code != 1 {
		t.Fatalf("failing plan: exit %d, want 1\n%s", fail.Code, fail.Log)
	}
	wantOutputs(t, fail, map[string]string{"verdict": "failed", "exit-code": "1", "junit": "testctl-junit.xml"})
	if n := rel.requests.Load(); n != downloads {
		t.Errorf("second job made %d requests to the release server, want none: the tool cache has the release", n-downloads)
	}
	if !strings.Contains(fail.Log, "from the tool cache") {
		t.Errorf("second job's log does not say it used the tool cache:\n%s", fail.Log)
	}
	if strings.Contains(withoutMaskCommands(pass.RawLog+fail.RawLog), testKey) {
		t.Errorf("the API key appears in the steps' output beyond its ::add-mask:: command")
	}
	if strings.Contains(pass.RawLog+fail.RawLog, emulatedToken) {
		t.Errorf("the github-token appears in the steps' output")
	}
}

func TestActionTimeoutIsExit7(t *testing.T) {
	res := runActionWith(t, "pln-slow_sandbox", map[string]string{
		"timeout": "1s",
	})
	if res.Code != 7 {
		t.Fatalf("exit %d, want 7\n%s", res.Code, res.Log)
	}
	wantOutputs(t, res, map[string]string{"verdict": "timeout", "exit-code": "7", "junit": "testctl-junit.xml"})
}

// GitHub cancels a job with SIGINT to the step's process: testctl, since
// the step execs it, ends with 130 and leaves the partial JUnit report.
func TestActionCancelledStepIs130WithPartialJUnit(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	in := sandboxInputs(rel, sb, "pln-slow_sandbox")
	in["timeout"] = "20s" // a bound, should the signal not reach testctl
	res := runAction(t, actionJob{Inputs: in, ToolCache: t.TempDir(),
		OnStartStep: "run", OnStart: func(p *os.Process, out *syncBuffer) {
			waitFor(t, out, "Started run")
			time.Sleep(300 * time.Millisecond) // a poll or two into the wait
			_ = p.Signal(syscall.SIGINT)
		}})
	if res.Code != 130 || strings.Contains(res.Log, "timed out") {
		t.Fatalf("exit %d, want 130 from testctl itself, not its timeout\n%s", res.Code, res.Log)
	}
	wantOutputs(t, res, map[string]string{"verdict": "interrupted", "exit-code": "130", "junit": "testctl-junit.xml"})
	junit, err := os.ReadFile(filepath.Join(res.Workspace, "testctl-junit.xml"))
	if err != nil || !strings.Contains(string(junit), "<testsuite") {
		t.Errorf("partial JUnit report: %v\n%s", err, junit)
	}
}

func TestActionRefusesATamperedArchive(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	rel.tamper()
	cache := t.TempDir()
	res := runAction(t, actionJob{Inputs: sandboxInputs(rel, sb, "pln-passing_sandbox"), ToolCache: cache})
	if res.Code == 0 {
		t.Fatalf("a tampered archive was installed:\n%s", res.Log)
	}
	if !strings.Contains(res.Log, "::error title=testctl install::testctl_"+releaseVersion) ||
		!strings.Contains(res.Log, "does not match its SHA-256 in checksums.txt") {
		t.Errorf("the error does not say the archive failed its checksum:\n%s", res.Log)
	}
	if strings.Contains(res.Log, "Started run") {
		t.Error("testctl ran although its archive failed the check")
	}
	if entries, _ := filepath.Glob(filepath.Join(cache, "testctl", "*", "*")); len(entries) != 0 {
		t.Errorf("the tool cache keeps %v after a refused install", entries)
	}
	wantOutputs(t, res, map[string]string{"verdict": "", "exit-code": ""})
}

// A version that has no release stops the step, naming what was missing.
func TestActionUnknownVersionIsAClearError(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	in := sandboxInputs(rel, sb, "pln-passing_sandbox")
	in["version"] = "v0.0.9"
	res := runAction(t, actionJob{Inputs: in, ToolCache: t.TempDir()})
	if res.Code == 0 || !strings.Contains(res.Log, "could not download "+rel.URL+"/v0.0.9/testctl_0.0.9_") {
		t.Fatalf("exit %d: want the missing archive named\n%s", res.Code, res.Log)
	}
	wantOutputs(t, res, map[string]string{"verdict": "", "exit-code": ""})

	in["version"] = "../../../etc"
	res = runAction(t, actionJob{Inputs: in, ToolCache: t.TempDir()})
	if res.Code == 0 || !strings.Contains(res.Log, "is not a release version") {
		t.Fatalf("exit %d: want a version that is a path refused\n%s", res.Code, res.Log)
	}
}

// Bad input is refused before anything starts, with exit 2 and its verdict.
func TestActionBadBooleanIsUsage(t *testing.T) {
	res := runActionWith(t, "pln-passing_sandbox", map[string]string{
		"fail-on-flaky": "yes",
	})
	if res.Code != 2 {
		t.Fatalf("exit %d, want 2\n%s", res.Code, res.Log)
	}
	wantOutputs(t, res, map[string]string{"verdict": "usage", "exit-code": "2"})
	if !strings.Contains(res.Log, "input fail-on-flaky must be true or false") {
		t.Errorf("the error does not name the input:\n%s", res.Log)
	}
}

// args is split as a shell splits words, without running anything in it.
func TestActionArgsAreSplitNotEvaluated(t *testing.T) {
	res := runActionWith(t, "pln-passing_sandbox", map[string]string{
		"wait": "false",
		"args": `--commit-message "two words $(touch pwned)" --branch 'feature/x'`,
	})
	if res.Code != 0 {
		t.Fatalf("exit %d\n%s", res.Code, res.Log)
	}
	wantOutputs(t, res, map[string]string{"verdict": "started", "exit-code": "0", "junit": ""})
	if _, err := os.Stat(filepath.Join(res.Workspace, "pwned")); err == nil {
		t.Error("a command substitution in args was run")
	}
	// The command line is printed quoted, as a shell would take it again.
	if !strings.Contains(res.Log, "--commit-message 'two words $(touch pwned)' --branch feature/x") {
		t.Errorf("args were not split into words as given:\n%s", res.Log)
	}
}

// An args no shell could split is refused before anything starts, naming
// the input; the outputs a later step reads say why. One of blanks only
// (a YAML block left empty) is no argument: bash passed one empty argument,
// which run start refused.
func TestActionArgsWithUnbalancedQuotesIsUsageAndBlankArgsIsNone(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	cache := t.TempDir()
	in := sandboxInputs(rel, sb, "pln-passing_sandbox")
	in["wait"], in["codehost"] = "false", "false"
	in["args"] = `--commit-message "it's`
	res := runAction(t, actionJob{Inputs: in, ToolCache: cache})
	if res.Code != 2 || !strings.Contains(res.Log, "input args: the double quote at character 18 is never closed") {
		t.Fatalf("exit %d: want 2 and the unbalanced quote named\n%s", res.Code, res.Log)
	}
	wantOutputs(t, res, map[string]string{"verdict": "usage", "exit-code": "2", "run-short-id": ""})
	if strings.Contains(res.Log, "Started run") {
		t.Error("a run started despite the bad input")
	}

	in["args"] = " \n \t\n"
	res = runAction(t, actionJob{Inputs: in, ToolCache: cache})
	if res.Code != 0 {
		t.Fatalf("blank args: exit %d, want 0\n%s", res.Code, res.Log)
	}
	wantOutputs(t, res, map[string]string{"verdict": "started", "exit-code": "0"})
	if res.Outputs["run-short-id"] == "" {
		t.Error("no run-short-id after a start without wait")
	}
}

// A key in args would reach testctl's argv, where other processes see it:
// it is refused, and never printed.
func TestActionRefusesTheKeyInArgs(t *testing.T) {
	res := runActionWith(t, "pln-passing_sandbox", map[string]string{
		"api-key": "",
		"args":    "--api-key=" + testKey,
	})
	if res.Code != 2 || !strings.Contains(res.Log, "pass the key in the api-key input") {
		t.Fatalf("exit %d: want 2 and the key refused in args\n%s", res.Code, res.Log)
	}
	if strings.Contains(withoutMaskCommands(res.RawLog), testKey) {
		t.Error("the key given in args was printed")
	}
}

// plan and app take one value a line, as YAML block scalars give them; a
// spec keeps its spaces.
func TestActionMultiLineInputsAreOneArgumentALine(t *testing.T) {
	res := runActionWith(t, "pln-passing_sandbox\n  pln-failing_sandbox  \n\n", map[string]string{
		"wait":     "false",
		"codehost": "false",
		"app":      "app_sandbox-web,env=env_sandbox-staging,name=Shop web\n",
		"args":     "--dry-run",
	})
	if res.Code != 0 {
		t.Fatalf("exit %d\n%s", res.Code, res.Log)
	}
	for _, want := range []string{`"testPlanShortId": "pln-passing_sandbox"`, `"testPlanShortId": "pln-failing_sandbox"`, `"name": "Shop web"`} {
		if !strings.Contains(res.Log, want) {
			t.Errorf("the request has no %s:\n%s", want, res.Log)
		}
	}
}

func wantOutputs(t *testing.T, res actionResult, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := res.Outputs[k]; got != v {
			t.Errorf("output %s = %q, want %q", k, got, v)
		}
	}
}

func containsPath(paths []string, prefix string) bool {
	for _, p := range paths {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// waitFor waits until out holds s, or fails the test after a long while.
func waitFor(t *testing.T, out *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(out.String(), s) {
		if time.Now().After(deadline) {
			t.Errorf("no %q in the step's output after a minute:\n%s", s, out.String())
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// withoutMaskCommands is a log without its ::add-mask:: lines, which the
// runner consumes and never shows.
func withoutMaskCommands(log string) string {
	var keep []string
	for _, line := range strings.Split(log, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "::add-mask::") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}
