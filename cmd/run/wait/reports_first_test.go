package wait_test

import (
	"os"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// A --jq expression that fails on the data, after a FAILED run, loses no
// report: the files come first, stdout last, and the exit code is the
// larger of the verdict's (1) and the failure's (2).
func TestStdoutFailureKeepsTheReports(t *testing.T) {
	e := cmdtest.New(t)
	id := startRun(t, e, sandbox.PlanFailing)
	junit, html := e.Dir+"/junit.xml", e.Dir+"/report.html"
	outputs := e.GitHubActions()
	summary := e.WriteFile("gh/summary.md", "")
	e.Setenv("GITHUB_STEP_SUMMARY", summary)
	r := e.Run("run", "wait", id, "--junit", junit, "--html", html, "--jq", `error("boom")`).Expect(t, 2)
	for _, f := range []string{junit, html, summary} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if out := cmdtest.ReadGitHubOutput(t, outputs); out["run_short_id"] != id || out["run_result"] != "FAILED" {
		t.Errorf("outputs %v", out)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "::error title=", "boom")
}

// A busy project pushes a run off the first page of the run list: its
// JUnit suite is still named after its plan, from the run itself, so CI
// test history holds across builds.
func TestSuiteNameDoesNotDependOnTheRunList(t *testing.T) {
	e := cmdtest.New(t)
	id := startRun(t, e, sandbox.PlanFailing)
	for i := 0; i < 25; i++ {
		startRun(t, e, sandbox.PlanPassing)
	}
	junit := e.Dir + "/junit.xml"
	e.Run("run", "wait", id, "--junit", junit, "--evidence", "0").Expect(t, 1)
	doc := readJUnitFile(t, junit)
	if len(doc.Suites) != 1 || doc.Suites[0].Name != "Checkout regression (failing)" {
		t.Errorf("suite %q, want the plan's name", doc.Suites[0].Name)
	}
	if data, _ := os.ReadFile(junit); !strings.Contains(string(data), `name="plan_short_id" value="`+sandbox.PlanFailing+`"`) {
		t.Errorf("no plan short id in the properties:\n%s", data)
	}
}
