package integrations_test

import (
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

// GitHub cancels a job with SIGINT to the step's process: testctl, since
// the step execs it, ends with 130 and leaves the partial JUnit report.
//
// Emulated (action_runner_test.go), not under act: act cancels a step with
// SIGKILL, which no process can answer, so only the emulation can send the
// SIGINT GitHub's runner sends. Everything else about the Action runs under
// act (act_test.go).
func TestActionCancelledStepIs130WithPartialJUnit(t *testing.T) {
	needTools(t, actionTools...)
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

func wantOutputs(t *testing.T, res actionResult, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got := res.Outputs[k]; got != v {
			t.Errorf("output %s = %q, want %q", k, got, v)
		}
	}
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
