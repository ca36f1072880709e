package wait_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

const postRerun = "POST /v1/run/{shortId}"

// The flaky plan fails two test cases that pass when rerun: with one retry
// the step passes, and the flakiness is reported everywhere.
func TestRetryFailedMakesFlakyTestsVisible(t *testing.T) {
	e := cmdtest.New(t)
	junit := e.Dir + "/report.xml"
	outputs := e.GitHubActions()
	r := e.Run("run", "start", "--plan", sandbox.PlanFlaky, "--wait", "--retry-failed", "1", "--junit", junit).Expect(t, 0)
	if n := e.Requests(postRerun); n != 1 {
		t.Errorf("%d reruns, want 1", n)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Retry 1 of 1: rerunning the 2 failed test cases of run",
		"Flaky: 2 test cases passed only on a retry", "passed on retry 1 of 1", "first failure: Results stopped loading at page 17 of 24",
		"attempt 1: run", "attempt 2: run", "::warning title=testctl run")

	doc := cmdtest.ReadJUnitFile(t, junit)
	if len(doc.Suites) != 1 {
		t.Fatalf("%d suites, want 1", len(doc.Suites))
	}
	flaky := 0
	for _, c := range doc.Suites[0].Cases {
		if c.Failure != nil {
			t.Errorf("test case %q fails in the report of a run that passed on retry", c.Name)
		}
		for _, f := range c.FlakyFailures {
			flaky++
			if f.Message == "" || f.Type != "FAILED" || f.StackTrace == "" {
				t.Errorf("flakyFailure of %q: %+v", c.Name, f)
			}
		}
	}
	if flaky != 2 || len(doc.Suites[0].Cases) != 5 {
		t.Errorf("%d flakyFailure elements in %d test cases, want 2 in 5", flaky, len(doc.Suites[0].Cases))
	}
	props := map[string]string{}
	for _, p := range doc.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	if props["attempt_1_short_id"] == "" || props["attempt_2_short_id"] != props["run_short_id"] || props["attempt_1_url"] == "" {
		t.Errorf("attempts in the properties: %q", props)
	}

	var runs []struct {
		Attempts []struct{ ShortID, Result string }
	}
	got := cmdtest.ReadGitHubOutput(t, outputs)
	if err := json.Unmarshal([]byte(got["runs_json"]), &runs); err != nil || len(runs) != 1 || len(runs[0].Attempts) != 2 ||
		runs[0].Attempts[0].Result != "FAILED" || runs[0].Attempts[1].Result != "PASSED" {
		t.Errorf("runs_json %s: %v", got["runs_json"], err)
	}
}

func TestFlakyVerdicts(t *testing.T) {
	e := cmdtest.New(t)
	e.Run("run", "start", "--plan", sandbox.PlanFlaky, "--wait", "--retry-failed", "1", "--fail-on-flaky").Expect(t, 1)
	r := e.Run("run", "start", "--plan", sandbox.PlanFlaky, "--wait", "--retry-failed", "0", "-q").Expect(t, 1)
	if n := e.Requests(postRerun); n != 1 {
		t.Errorf("%d reruns, want only the one of the first command", n)
	}
	// run wait retries too, and so does run rerun --wait.
	id := strings.TrimSpace(r.Stdout)
	e.Run("run", "wait", id, "--retry-failed", "1").Expect(t, 0)
	r = e.Run("run", "rerun", id, "--wait", "--retry-failed", "2").Expect(t, 0)
	cmdtest.Contains(t, "run rerun stderr", r.Stderr, "passed on retry 1 of 2")
}

func TestRetryFailedGivesTheLastAttemptsVerdict(t *testing.T) {
	e := cmdtest.New(t)
	// The failing plan's failures fail every time: two retries, still FAILED.
	r := e.Run("run", "start", "--plan", sandbox.PlanFailing, "--wait", "--retry-failed", "2").Expect(t, 1)
	if n := e.Requests(postRerun); n != 2 {
		t.Errorf("%d reruns, want 2", n)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Retry 1 of 2", "Retry 2 of 2", "attempt 3: run")
	if strings.Contains(r.Stderr, "Flaky") {
		t.Errorf("a test case that never passed is called flaky:\n%s", r.Stderr)
	}
	// ERROR and CANCELLED runs are not retried.
	e.Run("run", "start", "--plan", sandbox.PlanErroring, "--wait", "--retry-failed", "1").Expect(t, 3)
	e.Run("run", "start", "--plan", sandbox.PlanCancelled, "--wait", "--retry-failed", "1").Expect(t, 3)
	if n := e.Requests(postRerun); n != 2 {
		t.Errorf("%d reruns: an ERROR or CANCELLED run was retried", n)
	}
	e.Run("run", "wait", "r0a1b2", "--retry-failed", "-1").Expect(t, 2)
	e.Run("run", "start", "--plan", sandbox.PlanFlaky, "--retry-failed", "1").Expect(t, 2) // needs --wait
}

// A retry's rerun whose answer was lost is adopted, as `run rerun` does:
// never a second rerun, and the wait goes on with the one created.
func TestRetryAdoptsARerunWhoseAnswerWasLost(t *testing.T) {
	e := cmdtest.New(t)
	id := strings.TrimSpace(e.Run("run", "start", "--plan", sandbox.PlanFlaky, "-q").Expect(t, 0).Stdout)
	e.FaultWrites("POST /v1/run/"+id, cmdtest.LoseAnswer)
	before := e.Sandbox.Server.Stats().RunsStarted
	r := e.Run("run", "wait", id, "--retry-failed", "1").Expect(t, 0)
	if created := e.Sandbox.Server.Stats().RunsStarted - before; created != 1 {
		t.Errorf("%d reruns created, want 1", created)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but run", "passed on retry 1 of 1")
}

// A retry's rerun whose answer was lost never takes another job's rerun of
// the same plan and commit, listed with other applications, for its own:
// it is named, and the retry fails (exit 6), never passed.
func TestRetryNeverAdoptsAnotherJobsRerun(t *testing.T) {
	e := cmdtest.New(t)
	id := strings.TrimSpace(e.Run("run", "start", "--plan", sandbox.PlanFlaky, "-q").Expect(t, 0).Stdout)
	job := e.OtherJob("POST /v1/run/"+id, cmdtest.LoseRequest, []string{"app_other"}, func(map[string]any) {})
	r := e.Run("run", "wait", id, "--retry-failed", "1").Expect(t, 6) // the rerun failed
	cmdtest.Contains(t, "stderr", r.Stderr, "retry 1 of 1", "run "+job.ShortID()+" was created since; it was not adopted")
	if strings.Contains(r.Stderr, "passed on retry") {
		t.Errorf("reports the other job's rerun as its retry:\n%s", r.Stderr)
	}
}

// A test case skipped because another failed is rerun with it (by project
// test case id), so the verdict is not the failed one's alone: it comes
// from the attempt the skipped test case last ran in.
func TestRetryRerunsTheTestCasesSkippedBecauseOfAFailure(t *testing.T) {
	e := cmdtest.New(t)
	junit := e.Dir + "/report.xml"
	r := e.Run("run", "start", "--plan", sandbox.PlanFailing, "--wait", "--retry-failed", "1", "--junit", junit,
		"--evidence", "0").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "rerunning the 2 failed test cases and 1 skipped test case of run")
	if n := e.Requests("GET /v1/test-cases"); n == 0 {
		t.Error("the project test case ids were never looked up")
	}
	rerun := strings.TrimSpace(r.Stderr[strings.Index(r.Stderr, " as run ")+len(" as run "):])[:6]
	cmdtest.Contains(t, "stderr", r.Stderr, "Receive the order confirmation email ["+rerun+"-")
}
