package get_test

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/sandbox"
)

// finishedRun starts plan and lets sandbox time pass until it has ended.
func finishedRun(t *testing.T, e *cmdtest.Env, plan string) string {
	t.Helper()
	r := e.Run("run", "start", "--plan", plan, "-q").Expect(t, 0)
	e.Clock.Advance(time.Minute)
	return strings.TrimSpace(r.Stdout)
}

func TestGetShowsStatusAndTestCases(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, "pln-failing_sandbox")
	r := e.Run("run", "get", id).Expect(t, 0)
	// stdout is the table from its header (`run get ID | cut -f1`); the
	// run's status, plan and URL are on stderr.
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if lines[0] != "SHORT ID\tNAME\tSTATUS\tRESULT\tRESULT TITLE" {
		t.Fatalf("stdout:\n%s", r.Stdout)
	}
	if len(lines) != 1+7 {
		t.Errorf("%d test case rows, want 7:\n%s", len(lines)-1, r.Stdout)
	}
	if want := "Run " + id + " (pln-failing_sandbox): COMPLETED, FAILED\n  https://app.sandbox.testctl.invalid/runs/" + id + "\n"; r.Stderr != want {
		t.Errorf("stderr %q, want %q", r.Stderr, want)
	}
	cmdtest.Contains(t, "stdout", r.Stdout, "Apply an expired coupon\tCOMPLETED\tFAILED\tExpired coupon SPRING-2019 was accepted")
}

func TestGetFailedOnlyWithIssues(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, "pln-failing_sandbox")
	r := e.Run("run", "get", id, "--test-cases", "failed", "--issues").Expect(t, 0)
	if strings.Contains(r.Stdout, "\tPASSED\t") {
		t.Errorf("passed test cases listed with --test-cases failed:\n%s", r.Stdout)
	}
	cmdtest.Contains(t, "stdout", r.Stdout, "\tFAILED\t", "\tSKIPPED\t",
		"ISSUE\tSEVERITY\tTYPE\tTITLE\tTEST CASES", "Expired coupons are accepted at checkout")

	id = finishedRun(t, e, "pln-passing_sandbox")
	r = e.Run("run", "get", id, "--test-cases", "failed", "--issues").Expect(t, 0)
	if r.Stdout != "" {
		t.Errorf("stdout %q", r.Stdout)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Run "+id+" (pln-passing_sandbox): COMPLETED, PASSED", "No failed, skipped or errored test cases.", "No issues detected.")
}

func TestGetJSONIsTheRunDetail(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, "pln-failing_sandbox")
	r := e.Run("run", "get", id, "-o", "json", "--issues").Expect(t, 0)
	var d api.RunDetail
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if d.ShortID != id || d.ResultOrEmpty() != api.ResultFailed || len(d.RunTestCases) != 7 || len(d.Issues) == 0 {
		t.Errorf("%+v", d)
	}
	r = e.Run("run", "get", id, "--jq", ".runTestCases | length").Expect(t, 0)
	if r.Stdout != "7\n" {
		t.Errorf("--jq: %q", r.Stdout)
	}
}

func TestGetTTYTableIsAligned(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, "pln-passing_sandbox")
	e.Setenv("NO_COLOR", "1")
	r := e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "get", id).Expect(t, 0)
	if strings.Contains(r.Stdout, "\t") || strings.Contains(r.Stdout, "\x1b[") {
		t.Errorf("TTY output with tabs or colour under NO_COLOR:\n%s", r.Stdout)
	}
	cmdtest.Contains(t, "stdout", r.Stdout, "SHORT ID  ", "COMPLETED  PASSED")
}

func TestGetLegacy(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, "pln-failing_sandbox")
	r := e.Run("run", "get", id, "--legacy", "--project-uuid", sandbox.ProjectUUID).Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "deprecated", "testctl run get "+id)
	cmdtest.Contains(t, "stderr", r.Stderr, "Run "+id+": COMPLETED, FAILED")
	cmdtest.Contains(t, "stdout", r.Stdout, "Apply an expired coupon")
	if strings.Contains(r.Stdout, "PASSED\t") {
		t.Errorf("legacy lists failed test cases only:\n%s", r.Stdout)
	}
	r = e.Run("run", "get", id, "--legacy", "--project-uuid", sandbox.ProjectUUID, "-o", "json").Expect(t, 0)
	var d api.LegacyRunDetail
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil || len(d.FailedTestCases) != 2 || len(d.ID) != 36 {
		t.Errorf("%v %+v", err, d)
	}
	if e.Requests("GET /v1/run/{shortId}") != 0 {
		t.Error("--legacy used the /v1 address")
	}

	e.Run("run", "get", id, "--legacy", "--project-uuid", "00000000-0000-4000-8000-000000000000").Expect(t, 5)
	e.Setenv("TESTCTL_LEGACY_BASE_URL", "")
	r = e.Run("run", "get", id, "--legacy", "--project-uuid", sandbox.ProjectUUID).Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--legacy-base-url", "TESTCTL_LEGACY_BASE_URL", "legacy_base_url")
}

func TestGetJUnit(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, "pln-failing_sandbox")
	path := filepath.Join(e.Dir, "report.xml")
	e.Run("run", "get", id, "--junit", path).Expect(t, 0)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || doc.Tests != 7 || doc.Failures != 2 {
		t.Errorf("%v %+v\n%s", err, doc, data)
	}
}

func TestGetErrors(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "get", "rzzzzz").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "404")
	r = e.Run("run", "get", "r1", "--test-cases", "some").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--test-cases", "all, failed")
	e.Run("run", "get").Expect(t, 2)
	if n := e.Requests("GET /v1/run/{shortId}"); n != 1 {
		t.Errorf("%d requests, want only the 404 one", n)
	}
}

// An answer with nulls where the run should be says nothing about the run:
// unreadable (6), as run wait calls it, never "Run : " and exit 0.
func TestGetNullAnswerIsUnreadable(t *testing.T) {
	e := cmdtest.New(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":null,"shortId":null,"status":null,"result":null,"runTestCases":[]}`))
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "get", "r1").Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr, "unreadable", "no run status")
	if r.Stdout != "" {
		t.Errorf("stdout %q", r.Stdout)
	}
	e.Run("run", "wait", "r1").Expect(t, 6) // after its retries
}

// A report that cannot be written is a local failure, 8, never a pass.
func TestGetUnwritableJUnitExits8(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedRun(t, e, "pln-passing_sandbox")
	r := e.Run("run", "get", id, "--junit", "/proc/testctl-report.xml").Expect(t, 8)
	cmdtest.Contains(t, "stderr", r.Stderr, "writing the JUnit report")
}

// run get --junit of a run that has not ended says so, and nothing about a
// wait that never happened.
func TestJUnitOfARunGoingOn(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanSlow)
	junit := filepath.Join(e.Dir, "j.xml")
	e.Run("run", "get", id, "--junit", junit).Expect(t, 0)
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	for _, wrong := range []string{"the run ended", "when the wait"} {
		if strings.Contains(string(b), wrong) {
			t.Errorf("JUnit of a run going on says %q:\n%s", wrong, b)
		}
	}
	cmdtest.Contains(t, "JUnit", string(b), "when the report was made")
}
