package wait_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// A run that ran no test case exits 1 and every report says why, unless
// --pass-with-no-tests: on run start --wait, run wait and run report.
func TestEmptyPlanFailsInEveryReport(t *testing.T) {
	e := cmdtest.New(t)
	out := e.GitHubActions()
	junit, html := filepath.Join(e.Dir, "junit.xml"), filepath.Join(e.Dir, "report.html")
	dotenv := filepath.Join(e.Dir, "testctl.env")
	r := e.Run("run", "start", "--plan", sandbox.PlanEmpty, "--wait", "--junit", junit, "--html", html, "--dotenv", dotenv).Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "ran no test case", "--pass-with-no-tests", "✗ failed (exit 1)",
		"::error title=testctl%3A run ", "PASSED::the run ended COMPLETED · PASSED but ran no test case")
	summary, err := os.ReadFile(e.Getenv("GITHUB_STEP_SUMMARY"))
	if err != nil {
		t.Fatal(err)
	}
	cmdtest.Contains(t, "step summary", string(summary), "ran no test case")
	doc := cmdtest.ReadJUnitFile(t, junit)
	if doc.Failures != 1 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 1 {
		t.Fatalf("JUnit: %+v", doc)
	}
	if f := doc.Suites[0].Cases[0].Failure; f == nil || f.Type != "NO_TEST_CASE" {
		t.Errorf("JUnit run verdict: %+v", doc.Suites[0].Cases[0])
	} else {
		cmdtest.Contains(t, "JUnit", f.Message, "ran no test case")
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	cmdtest.Contains(t, "HTML", string(page), "ran no test case")
	cmdtest.WantValues(t, "output", cmdtest.ReadGitHubOutput(t, out), map[string]string{"exit-code": "1", "verdict": "failed"})
	cmdtest.WantValues(t, "dotenv", cmdtest.ReadDotenv(t, dotenv), map[string]string{"TESTCTL_EXIT_CODE": "1", "TESTCTL_VERDICT": "failed"})

	id := e.StartRun(t, sandbox.PlanEmpty)
	cmdtest.Contains(t, "run wait", e.Run("run", "wait", id).Expect(t, 1).Stderr, "ran no test case")
	cmdtest.Contains(t, "run report", e.Run("run", "report", id).Expect(t, 1).Stderr, "ran no test case")
	for _, args := range [][]string{
		{"run", "start", "--plan", sandbox.PlanEmpty, "--wait", "--pass-with-no-tests", "--junit", junit},
		{"run", "wait", id, "--pass-with-no-tests"},
		{"run", "report", id, "--pass-with-no-tests"},
		{"run", "rerun", id, "--wait", "--pass-with-no-tests"},
	} {
		r := e.Run(args...).Expect(t, 0)
		cmdtest.Contains(t, args[1], r.Stderr, "passed (exit 0)")
	}
	if doc := cmdtest.ReadJUnitFile(t, junit); doc.Failures != 0 || doc.Errors != 0 {
		t.Errorf("JUnit with --pass-with-no-tests: %+v", doc)
	}
	// Without --wait there is no verdict to let through.
	e.Run("run", "start", "--plan", sandbox.PlanEmpty, "--pass-with-no-tests").Expect(t, 2)
}

// Whatever the service calls such a run, PASSED or SKIPPED, it ran nothing.
func TestServiceRunWithNoTestCaseFails(t *testing.T) {
	for _, result := range []string{"PASSED", "SKIPPED"} {
		t.Run(result, func(t *testing.T) {
			e := cmdtest.New(t)
			newScriptedRun(t, e, scriptStep{status: "COMPLETED", result: result, cases: []map[string]any{}})
			r := e.Run("run", "wait", "r1", "--evidence", "0").Expect(t, 1)
			cmdtest.Contains(t, "stderr", r.Stderr, "COMPLETED · "+result, "ran no test case")
			e.Run("run", "wait", "r1", "--evidence", "0", "--pass-with-no-tests").Expect(t, 0)
		})
	}
}
