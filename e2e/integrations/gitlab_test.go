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

// GitLab cancels a job with SIGTERM: testctl, exec'd by the script, ends
// with 143, leaves the partial JUnit report, and writes the dotenv report
// with the run's id and the code it ends with.
//
// Emulated (gitlab_runner_test.go), not under gitlab-ci-local: it cannot
// cancel one job of a running pipeline as GitLab does (SIGTERM to the
// job's shell). Everything else about the component
// runs under gitlab-ci-local (gitlabci_test.go).
func TestComponentCancelledJobIs143WithPartialReports(t *testing.T) {
	needTools(t, componentTools...)
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

// busyboxPath is a PATH of BusyBox's applets and nothing else (no bash, no
// curl, no GNU tools), as in the component's default alpine image, with
// testctl's tests' own tools beside it.
func busyboxPath(t *testing.T) (busybox, dir string) {
	t.Helper()
	needTools(t, "busybox") // CI must run the component's install as an alpine image does
	busybox, _ = toolPath("busybox")
	dir = t.TempDir()
	for _, applet := range []string{"sh", "wget", "tar", "sha256sum", "awk", "grep", "mktemp", "uname", "rm", "mkdir", "wc",
		"tail", "sleep", "cat", "sed", "tr", "xargs", "printf", "echo", "env", "ls", "gzip", "timeout"} {
		if err := os.Symlink(busybox, filepath.Join(dir, applet)); err != nil {
			t.Fatal(err)
		}
	}
	return busybox, dir
}

// The component's job in a BusyBox shell with wget and no curl: it
// installs and passes, and a download server that never answers fails it
// in bounded time, naming the URL.
//
// Emulated, not under gitlab-ci-local: its shell executor runs the host's
// bash with the host's tools, and without Docker no image can be chosen.
func TestComponentInstallsWithBusyBoxWget(t *testing.T) {
	busybox, path := busyboxPath(t)
	rel, sb := newRelease(t), startSandbox(t)
	run := func(in map[string]string, vars map[string]string) gitlabResult {
		job := loadComponent(t, in).Job
		for k, v := range vars {
			job.Variables[k] = v
		}
		job.Variables["PATH"], job.Variables["BUSYBOX"] = path, busybox
		return runGitLabJobIn(t, job, projectVars, "busybox")
	}
	res := run(componentInputs(rel, sb, "pln-passing_sandbox"), nil)
	if res.Code != 0 || !strings.Contains(res.Log, "installed (SHA-256") {
		t.Fatalf("exit %d: want the install by wget and a pass\n%s", res.Code, res.Log)
	}
	if res.Dotenv["TESTCTL_RUN_SHORT_ID"] == "" {
		t.Errorf("no dotenv: %v\n%s", res.Dotenv, res.Log)
	}

	url := silentServer(t)
	start := time.Now()
	res = run(componentInputs(&release{URL: url}, sb, "pln-passing_sandbox"),
		map[string]string{"TESTCTL_DOWNLOAD_STALL_TIMEOUT": "1", "TESTCTL_DOWNLOAD_RETRIES": "1"})
	if res.Code == 0 || !strings.Contains(res.Log, "could not download "+url+"/v"+releaseVersion+"/") ||
		!strings.Contains(res.Log, "the download stalled, less than 1024 bytes a second for 1s (tried 2 times)") {
		t.Errorf("exit %d: want the URL named, stalled after two tries\n%s", res.Code, res.Log)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the install took %v against a silent server", took)
	}
}
