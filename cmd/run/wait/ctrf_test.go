package wait_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/internal/ctrftest"
	"github.com/testctl/testctl/pkg/sandbox"
)

type ctrfTest struct {
	Name    string         `json:"name"`
	Status  string         `json:"status"`
	Suite   []string       `json:"suite"`
	Message string         `json:"message"`
	AI      string         `json:"ai"`
	Flaky   bool           `json:"flaky"`
	Retries int            `json:"retries"`
	Extra   map[string]any `json:"extra"`
}

type ctrfReport struct {
	ReportFormat string `json:"reportFormat"`
	Results      struct {
		Environment map[string]string `json:"environment"`
		Summary     map[string]int    `json:"summary"`
		Tests       []ctrfTest        `json:"tests"`
	} `json:"results"`
}

func readCTRF(t *testing.T, path string) ctrfReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc ctrfReport
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the CTRF report is not JSON: %v\n%s", err, data)
	}
	return doc
}

// waitWithCTRF waits, under GitHub Actions, on a failing run and a flaky
// one with a retry, writing the CTRF report: exit 1 for the failing plan.
func waitWithCTRF(t *testing.T) (e *cmdtest.Env, path string, r cmdtest.Result, outputs string) {
	e = cmdtest.New(t)
	path = filepath.Join(e.Dir, "ctrf.json")
	outputs = e.GitHubActions()
	e.Setenv("GITHUB_REPOSITORY", "octo/app")
	e.Setenv("GITHUB_RUN_ID", "9001")
	e.Setenv("GITHUB_SHA", "0123abc")
	e.Setenv("GITHUB_REF", "refs/heads/feature")
	r = e.Run("run", "start", "--plan", sandbox.PlanFailing, "--plan", sandbox.PlanFlaky, "--wait", "--retry-failed", "1",
		"--ctrf", path).Expect(t, 1)
	return e, path, r, outputs
}

// --ctrf writes one CTRF document for the runs of the command: each test
// case a test in its plan's suite, its status from the verdict, the
// flaky ones passed with their retries; its path is the step's output.
func TestCTRFReportOfTheRunsIsAStepOutput(t *testing.T) {
	_, path, r, outputs := waitWithCTRF(t)
	cmdtest.Contains(t, "stderr", r.Stderr, "CTRF report written to "+path)
	cmdtest.WantValues(t, "output", cmdtest.ReadGitHubOutput(t, outputs), map[string]string{"ctrf": path, "verdict": "failed", "exit-code": "1"})
	doc := readCTRF(t, path)
	if doc.ReportFormat != "CTRF" {
		t.Errorf("reportFormat %q", doc.ReportFormat)
	}
	if e := doc.Results.Environment; e["branchName"] != "feature" || e["commit"] != "0123abc" || !strings.HasSuffix(e["buildUrl"], "/octo/app/actions/runs/9001") {
		t.Errorf("environment %v", e)
	}
	suites := map[string]int{}
	flaky, failed := 0, 0
	for _, tc := range doc.Results.Tests {
		if len(tc.Suite) != 1 {
			t.Fatalf("%s: suite %v", tc.Name, tc.Suite)
		}
		suites[tc.Suite[0]]++
		if tc.Flaky {
			flaky++
			if tc.Status != "passed" || tc.Retries != 1 {
				t.Errorf("flaky %s: status %s, retries %d", tc.Name, tc.Status, tc.Retries)
			}
		}
		if tc.Status == "failed" {
			failed++
			if tc.Message == "" || tc.AI == "" || tc.Extra["runShortId"] == nil || tc.Extra["evidence"] == nil {
				t.Errorf("failed %s: message %q, ai %q, extra %v", tc.Name, tc.Message, tc.AI, tc.Extra)
			}
		}
	}
	if len(suites) != 2 || flaky != 2 || failed == 0 {
		t.Errorf("suites %v, %d flaky, %d failed", suites, flaky, failed)
	}
	if s := doc.Results.Summary; s["tests"] != len(doc.Results.Tests) || s["failed"] != failed || s["flaky"] != 2 {
		t.Errorf("summary %v", s)
	}
}

// The report is valid for the format's reference implementation, and
// GitHub's CTRF test reporter, run offline on it, names the failed test
// cases in the step summary.
func TestCTRFReportIsReadByTheFormatsTools(t *testing.T) {
	ctrftest.Require(t)
	ctrftest.RequireReporter(t)
	_, path, _, _ := waitWithCTRF(t)
	ctrftest.Validate(t, path)
	summary := ctrftest.StepSummary(t, path)
	var failed []string
	for _, tc := range readCTRF(t, path).Results.Tests {
		if tc.Status == "failed" {
			failed = append(failed, tc.Name)
		}
	}
	if len(failed) == 0 {
		t.Fatal("no failed test in the report of a failing plan")
	}
	cmdtest.Contains(t, "the reporter's step summary", summary, failed...)
}

// Whatever ends the wait, the report is written and states the verdict: a
// timeout leaves the unfinished test cases skipped and the run failed.
func TestCTRFReportIsWrittenWhenTheWaitTimesOut(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanSlow)
	path := filepath.Join(e.Dir, "partial.json")
	e.Run("run", "wait", id, "--timeout", "10m", "--ctrf", path).Expect(t, 7)
	doc := readCTRF(t, path)
	skipped, verdict := 0, ""
	for _, tc := range doc.Results.Tests {
		if tc.Status == "skipped" {
			skipped++
		}
		if tc.Name == "(run verdict)" && tc.Status == "failed" {
			verdict = tc.Message
		}
	}
	if skipped == 0 || !strings.Contains(verdict, "timed out") {
		t.Errorf("%d skipped, run verdict %q: %+v", skipped, verdict, doc.Results.Tests)
	}
}

// A report that cannot be written exits 8, as JUnit's and HTML's do; the
// flag needs --wait on run start.
func TestCTRFFlag(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanPassing)
	r := e.Run("run", "wait", id, "--ctrf", "/proc/testctl-report").Expect(t, 8)
	cmdtest.Contains(t, "stderr", r.Stderr, "error: writing the CTRF report")
	r = e.Run("run", "start", "--plan", sandbox.PlanPassing, "--ctrf", filepath.Join(e.Dir, "c.json")).Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--ctrf applies to --wait")
	r = e.Run("run", "report", id, "--ctrf", filepath.Join(e.Dir, "report.json")).Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "CTRF report written to")
}
