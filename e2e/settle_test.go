package e2e_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/sandbox"
)

// The code is settled before any report states it: under GitHub Actions,
// the step summary, the annotations and the outputs state the code the
// process exits with, never a pass the exit code contradicts.

// stepSummary is the GitHub step summary the command appended to.
func stepSummary(t *testing.T, e *cmdtest.Env) string {
	t.Helper()
	b, err := os.ReadFile(e.Getenv("GITHUB_STEP_SUMMARY"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantStated checks that every report of a GitHub step states code, in the
// word want (the outputs' verdict), and none a pass; raised: the code is
// not the runs' verdict, and an annotation says so.
func wantStated(t *testing.T, e *cmdtest.Env, outputs string, r cmdtest.Result, code, word string, raised bool) {
	t.Helper()
	cmdtest.WantValues(t, "outputs", cmdtest.ReadGitHubOutput(t, outputs), map[string]string{"exit-code": code, "verdict": word})
	md := stepSummary(t, e)
	if !strings.HasPrefix(md, "## ❌ testctl: failed (exit "+code+")") || strings.Contains(md, "testctl: passed") {
		t.Errorf("the step summary does not state exit %s:\n%s", code, md)
	}
	if raised && !strings.Contains(r.Stderr, "::error title=testctl%3A exit "+code+" ("+word+")::") {
		t.Errorf("no ::error annotation states exit %s:\n%s", code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, word+" (exit "+code+")") {
		t.Errorf("the terminal summary does not state exit %s:\n%s", code, r.Stderr)
	}
}

// The JUnit file's directory removed while the run goes on: exit 8, and
// every report says so, the JUnit report named in an ::error.
func TestSettleJUnitDirectoryRemovedDuringTheWait(t *testing.T) {
	e := cmdtest.New(t)
	outputs := e.GitHubActions()
	dir := filepath.Join(e.Dir, "reports")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	e.Hook(func(r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/run/") {
			once.Do(func() { _ = os.RemoveAll(dir) })
		}
	})
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, "--wait", "--junit", filepath.Join(dir, "junit.xml")).Expect(t, 8)
	wantStated(t, e, outputs, r, "8", "local", true)
	if !strings.Contains(r.Stderr, "::error title=testctl report::writing the JUnit report") {
		t.Errorf("no ::error names the JUnit report:\n%s", r.Stderr)
	}
	if !strings.Contains(stepSummary(t, e), "The runs' verdict: passed (exit 0)") {
		t.Errorf("the step summary does not state the runs' verdict:\n%s", stepSummary(t, e))
	}
}

// A --jq that fails on the document: exit 2 (the larger of the verdict's
// and 2), stated everywhere, the error printed once.
func TestSettleJQFailureIsStated(t *testing.T) {
	e := cmdtest.New(t)
	outputs := e.GitHubActions()
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, "--wait", "--jq", ".status.x").Expect(t, 2)
	wantStated(t, e, outputs, r, "2", "usage", true)
	if n := strings.Count(r.Stderr, "error: --jq:"); n != 1 {
		t.Errorf("the --jq error is printed %d times:\n%s", n, r.Stderr)
	}
	// A failing run keeps its larger code.
	e.GitHubActions()
	r = e.Run("run", "start", "--plan", sandbox.PlanFailing, "--wait", "--jq", ".status.x").Expect(t, 2)
	if !strings.Contains(r.Stderr, "error: --jq:") {
		t.Errorf("no --jq error:\n%s", r.Stderr)
	}
}

// TESTCTL_EXIT_CODE_FILE that cannot be written: exit 8, and the outputs,
// written before it, already say 8.
func TestSettleExitCodeFileUnwritable(t *testing.T) {
	e := cmdtest.New(t)
	outputs := e.GitHubActions()
	e.Setenv("TESTCTL_EXIT_CODE_FILE", filepath.Join(e.Dir, "missing", "exit-code"))
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, "--wait").Expect(t, 8)
	wantStated(t, e, outputs, r, "8", "local", true)
	// Off a wait too: the outputs of a start that waits for nothing.
	e.GitHubActions()
	e.Run("run", "start", "--plan", sandbox.PlanPassing).Expect(t, 8)
	cmdtest.WantValues(t, "outputs", cmdtest.ReadGitHubOutput(t, e.Getenv("GITHUB_OUTPUT")), map[string]string{"exit-code": "8", "verdict": "local"})
}

// A closed stderr (`… 2>&1 | head -1`) never changes the code.
func TestSettleClosedStderrKeepsTheCode(t *testing.T) {
	e := cmdtest.New(t)
	for plan, want := range map[string]int{sandbox.PlanPassing: 0, sandbox.PlanFailing: 1} {
		junit := filepath.Join(e.Dir, plan+".xml")
		ro := cmdtest.RunOptions{Stderr: iostreams.Stderr(closedPipe(t)), Stdout: iostreams.Stdout(closedPipe(t))}
		e.RunWith(ro, "run", "start", "--plan", plan, "--wait", "--junit", junit).Expect(t, want)
		if _, err := os.Stat(junit); err != nil {
			t.Errorf("%s: no JUnit report: %v", plan, err)
		}
	}
}
