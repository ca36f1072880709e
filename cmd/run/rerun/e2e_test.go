package rerun_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// finishedRun starts a plan, waits for its verdict and returns its short id.
func finishedRun(t *testing.T, e *cmdtest.Env, plan string, code int) string {
	t.Helper()
	r := e.Run("run", "start", "--plan", plan, "--wait", "-q").Expect(t, code)
	return strings.TrimSpace(r.Stdout)
}

func reruns(e *cmdtest.Env) int { return e.Requests("POST /v1/run/{shortId}") }

func TestRerunFailedOnlyDryRunShowsTheRequest(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	r := e.Run("run", "rerun", "r0a1b2", "--failed-only", "--dry-run", "--project", sandbox.ProjectShortID).Expect(t, 0)
	want := "POST " + e.Sandbox.BaseURL + "/v1/run/r0a1b2\nContent-Type: application/json\n\n" +
		"{\n  \"failedOnly\": true,\n  \"projectShortId\": \"" + sandbox.ProjectShortID + "\"\n}\n"
	if r.Stdout != want {
		t.Errorf("stdout\n%s\nwant\n%s", r.Stdout, want)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "nothing was sent")
	if n := reruns(e); n != 0 {
		t.Errorf("a dry run sent %d reruns", n)
	}
}

func TestRerunFailedOnlyWaitsForTheNewRun(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, sandbox.PlanFailing, 1)
	// The expired coupon and the declined card fail whenever they run.
	r := e.Run("run", "rerun", id, "--failed-only", "--wait", "-o", "json").Expect(t, 1)
	var d struct {
		ShortID      string
		RunTestCases []struct{ Name, Result string }
	}
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if d.ShortID == id || len(d.RunTestCases) != 2 {
		t.Errorf("the rerun should be a new run of the 2 failed test cases: %+v", d)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Started run "+d.ShortID+" (2 tests)", "COMPLETED · FAILED")
	if n := reruns(e); n != 1 {
		t.Errorf("%d reruns", n)
	}
}

func TestRerunQuietPrintsTheNewShortID(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, sandbox.PlanPassing, 0)
	r := e.Run("run", "rerun", id, "--test-case", sandbox.TestCaseLogin, "-q").Expect(t, 0)
	newID := strings.TrimSpace(r.Stdout)
	if newID == "" || newID == id || strings.Count(r.Stdout, "\n") != 1 {
		t.Fatalf("stdout %q", r.Stdout)
	}
	e.Run("run", "wait", newID).Expect(t, 0)
}

func TestRerunServiceRefusalsKeepTheirCodes(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, sandbox.PlanPassing, 0)
	// Nothing failed, so there is nothing to rerun: the service's 400.
	r := e.Run("run", "rerun", id, "--failed-only").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "no failed test cases")
	e.Run("run", "rerun", "rzzzzz", "--failed-only").Expect(t, 5)
	// Bad input is refused before anything is sent.
	before := reruns(e)
	e.Run("run", "rerun", id, "--test-case", "not-a-uuid").Expect(t, 2)
	if n := reruns(e); n != before {
		t.Errorf("a bad --test-case sent a request")
	}
}
