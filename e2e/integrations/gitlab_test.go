package integrations_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/sandbox"
)

// componentInputs include the component with plan against the sandbox on
// the served release.
func componentInputs(rel *release, sb *sandbox.Instance, plan string) map[string]string {
	return map[string]string{
		"plan": plan, "version": releaseVersion, "download-base-url": rel.URL,
		"base-url": sb.BaseURL, "interval": "100ms",
	}
}

// The key is a masked CI/CD variable of the project, never an input.
var projectVars = map[string]string{"TESTCTL_API_KEY": testKey}

func TestComponentJobPassesWithTheCommitsMetadata(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	c := loadComponent(t, componentInputs(rel, sb, "pln-passing_sandbox"))
	if c.Job.Artifacts.When != "always" || c.Job.Artifacts.Reports.JUnit != "testctl-junit.xml" || c.Job.Artifacts.ExposeAs == "" {
		t.Errorf("artifacts %+v: want when always, the JUnit report and an exposed HTML report", c.Job.Artifacts)
	}
	res := runGitLabJob(t, c.Job, projectVars, nil)
	if res.Code != 0 {
		t.Fatalf("exit %d, want 0\n%s", res.Code, res.Log)
	}
	id := res.Dotenv["TESTCTL_RUN_SHORT_ID"]
	if id == "" || !strings.HasSuffix(res.Dotenv["TESTCTL_RUN_URL"], "/"+id) {
		t.Errorf("dotenv %v: want the run's short id and URL", res.Dotenv)
	}
	if res.Dotenv["TESTCTL_EXIT_CODE"] != "0" || res.Dotenv["TESTCTL_VERDICT"] != "passed" {
		t.Errorf("dotenv %v: want exit code 0, passed", res.Dotenv)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "testctl-junit.xml")); err != nil {
		t.Errorf("JUnit report: %v", err)
	}
	run := listedRun(t, sb, id)
	want := map[string]string{"trigger": "CODEHOST", "branch": "release-2", "commitHash": "89abcdef0123456789abcdef0123456789abcdef"}
	for k, v := range want {
		if run[k] != v {
			t.Errorf("run %s: %s = %v, want %q (from GitLab's variables)", id, k, run[k], v)
		}
	}
	if strings.Contains(res.Log, testKey) {
		t.Error("the API key appears in the job's log")
	}
}

func TestComponentJobFailsAndTimesOutWithTestctlsCodes(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	res := runGitLabJob(t, loadComponent(t, componentInputs(rel, sb, "pln-failing_sandbox")).Job, projectVars, nil)
	if res.Code != 1 {
		t.Fatalf("failing plan: exit %d, want 1\n%s", res.Code, res.Log)
	}
	if res.Dotenv["TESTCTL_EXIT_CODE"] != "1" || res.Dotenv["TESTCTL_VERDICT"] != "failed" {
		t.Errorf("dotenv %v: want exit code 1, failed", res.Dotenv)
	}
	in := componentInputs(rel, sb, "pln-slow_sandbox")
	in["timeout"] = "1s"
	res = runGitLabJob(t, loadComponent(t, in).Job, projectVars, nil)
	if res.Code != 7 {
		t.Fatalf("slow plan with a 1s timeout: exit %d, want 7\n%s", res.Code, res.Log)
	}
	if res.Dotenv["TESTCTL_RUN_SHORT_ID"] == "" || res.Dotenv["TESTCTL_EXIT_CODE"] != "7" || res.Dotenv["TESTCTL_VERDICT"] != "timeout" {
		t.Errorf("dotenv after a timeout %v: want the run, exit code 7, timeout", res.Dotenv)
	}
}

// GitLab cancels a job with SIGTERM: testctl, exec'd by the script, ends
// with 143, leaves the partial JUnit report, and writes the dotenv report
// with the run's id and the code it ends with.
func TestComponentCancelledJobIs143WithPartialReports(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	in := componentInputs(rel, sb, "pln-slow_sandbox")
	in["timeout"] = "20s" // a bound, should the signal not reach testctl
	res := runGitLabJob(t, loadComponent(t, in).Job, projectVars, func(p *os.Process, out *syncBuffer) {
		waitFor(t, out, "Started run")
		time.Sleep(300 * time.Millisecond)
		_ = p.Signal(syscall.SIGTERM)
	})
	if res.Code != 143 || strings.Contains(res.Log, "timed out") {
		t.Fatalf("exit %d, want 143 from testctl itself, not its timeout\n%s", res.Code, res.Log)
	}
	junit, err := os.ReadFile(filepath.Join(res.Dir, "testctl-junit.xml"))
	if err != nil || !strings.Contains(string(junit), "<testsuite") {
		t.Errorf("partial JUnit report: %v", err)
	}
	if res.Dotenv["TESTCTL_RUN_SHORT_ID"] == "" || res.Dotenv["TESTCTL_EXIT_CODE"] != "143" || res.Dotenv["TESTCTL_VERDICT"] != "terminated" {
		t.Errorf("dotenv after a cancel %v: want the run, exit code 143, terminated", res.Dotenv)
	}
}

func TestComponentRefusesATamperedArchive(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	rel.tamper()
	res := runGitLabJob(t, loadComponent(t, componentInputs(rel, sb, "pln-passing_sandbox")).Job, projectVars, nil)
	if res.Code == 0 || !strings.Contains(res.Log, "does not match its SHA-256 in checksums.txt") {
		t.Fatalf("exit %d: want the archive refused for its checksum\n%s", res.Code, res.Log)
	}
	if strings.Contains(res.Log, "Started run") {
		t.Error("testctl ran although its archive failed the check")
	}
}

// listedRun finds a run in the sandbox's run list, which shows the
// metadata the start sent (trigger, branch, commit).
func listedRun(t *testing.T, sb *sandbox.Instance, id string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, sb.BaseURL+"/v1/run?limit=100", nil)
	req.Header.Set("Authorization", "Bearer "+testKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var page map[string]json.RawMessage
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		t.Fatal(err)
	}
	for _, raw := range page {
		var items []map[string]any
		if json.Unmarshal(raw, &items) != nil {
			continue
		}
		for _, it := range items {
			if it["shortId"] == id {
				return it
			}
		}
	}
	t.Fatalf("run %s is not in the run list", id)
	return nil
}

// A key in args would reach testctl's argv: the job refuses it.
func TestComponentRefusesTheKeyInArgs(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	in := componentInputs(rel, sb, "pln-passing_sandbox")
	in["args"] = "--api-key " + testKey
	res := runGitLabJob(t, loadComponent(t, in).Job, nil, nil)
	if res.Code != 2 || !strings.Contains(res.Log, "the key is the TESTCTL_API_KEY variable") {
		t.Fatalf("exit %d: want 2 and the key refused in args\n%s", res.Code, res.Log)
	}
	if strings.Contains(res.Log, testKey) {
		t.Error("the key given in args was printed")
	}
	if res.Dotenv["TESTCTL_EXIT_CODE"] != "2" || res.Dotenv["TESTCTL_VERDICT"] != "usage" {
		t.Errorf("dotenv %v: a later job should see the usage error", res.Dotenv)
	}
}

// A timeout that is no duration and args with a quote never closed are
// usage errors that name the input, and the dotenv report says so.
func TestComponentBadInputsAreUsageInTheDotenv(t *testing.T) {
	rel, sb := newRelease(t), startSandbox(t)
	for _, bad := range []struct{ input, value, want string }{
		{"timeout", "30", `input timeout is "30", not a duration like 30m`},
		{"args", `--branch 'x`, "input args: the single quote at character 10 is never closed"},
	} {
		in := componentInputs(rel, sb, "pln-passing_sandbox")
		in[bad.input] = bad.value
		res := runGitLabJob(t, loadComponent(t, in).Job, projectVars, nil)
		if res.Code != 2 || !strings.Contains(res.Log, bad.want) {
			t.Fatalf("%s %q: exit %d, want 2 and %q\n%s", bad.input, bad.value, res.Code, bad.want, res.Log)
		}
		if res.Dotenv["TESTCTL_EXIT_CODE"] != "2" || res.Dotenv["TESTCTL_VERDICT"] != "usage" || res.Dotenv["TESTCTL_RUN_SHORT_ID"] != "" {
			t.Errorf("%s: dotenv %v: want exit code 2, usage, no run", bad.input, res.Dotenv)
		}
	}
}
