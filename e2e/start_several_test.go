package e2e_test

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

var startedLine = regexp.MustCompile(`Started run (r[a-z0-9]+) `)

// startedIDs are the runs announced on stderr.
func startedIDs(stderr string) []string {
	var ids []string
	for _, m := range startedLine.FindAllStringSubmatch(stderr, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func TestSeveralPlansOneVerdictOneJUnitFile(t *testing.T) {
	e := cmdtest.New(t)
	junit := e.Dir + "/report.xml"
	outputs := e.GitHubActions()
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, "--plan", sandbox.PlanFailing, "--wait", "--junit", junit).Expect(t, 1)
	ids := startedIDs(r.Stderr)
	if len(ids) != 2 || e.Requests(postRun) != 2 {
		t.Fatalf("runs started %q, POSTs %d\n%s", ids, e.Requests(postRun), r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Run "+ids[0]+": COMPLETED", "Run "+ids[1]+": COMPLETED", "COMPLETED · PASSED", "COMPLETED · FAILED")

	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Suites) != 2 {
		t.Fatalf("want a suite per run: %v\n%s", err, data)
	}
	for _, id := range ids {
		if !strings.Contains(string(data), `value="`+id+`"`) {
			t.Errorf("run %s is not in the JUnit file", id)
		}
	}

	got := cmdtest.ReadGitHubOutput(t, outputs)
	var runs []struct{ ShortID string }
	if err := json.Unmarshal([]byte(got["runs_json"]), &runs); err != nil || len(runs) != 2 {
		t.Errorf("runs_json %q: %v", got["runs_json"], err)
	}
	if _, ok := got["run_short_id"]; ok {
		t.Errorf("run_short_id written for two runs: %q", got)
	}
}

func TestSeveralPlansQuietPrintsAnIDALineInPlanOrder(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, "--plan", sandbox.PlanFailing, "--plan", sandbox.PlanSkipped, "-q").Expect(t, 0)
	lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
	if len(lines) != 3 {
		t.Fatalf("stdout %q", r.Stdout)
	}
	for i, plan := range []string{sandbox.PlanPassing, sandbox.PlanFailing, sandbox.PlanSkipped} {
		got := e.Run("run", "get", lines[i], "-o", "json", "--jq", ".shortId").Expect(t, 0)
		if strings.TrimSpace(got.Stdout) != lines[i] {
			t.Errorf("line %d: %q is not a run (%s)", i, lines[i], plan)
		}
	}
	list := e.Run("run", "list", "--plan", sandbox.PlanFailing, "-o", "json", "--jq", ".runs[0].shortId").Expect(t, 0)
	if strings.TrimSpace(list.Stdout) != lines[1] {
		t.Errorf("the second line should be the run of the second plan: %q, run list says %q", lines[1], list.Stdout)
	}
}

// A plan that cannot start does not hide the runs that did: they are waited
// for and reported, and the exit code says the start failed.
func TestAFailedStartAmongSeveralStillReportsTheOthers(t *testing.T) {
	e := cmdtest.New(t)
	junit := e.Dir + "/report.xml"
	r := e.Run("run", "start", "--plan", sandbox.PlanFailing, "--plan", "pln-missing_sandbox", "--wait", "--junit", junit).Expect(t, 5)
	ids := startedIDs(r.Stderr)
	if len(ids) != 1 {
		t.Fatalf("runs started %q\n%s", ids, r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Run "+ids[0]+": COMPLETED · FAILED")
	// The summary, where a CI log is read, names it under the runs, and
	// only there.
	if n := strings.Count(r.Stderr, "HTTP 404"); n != 1 {
		t.Errorf("the failed start is printed %d times, want once, in the summary:\n%s", n, r.Stderr)
	}
	if strings.LastIndex(r.Stderr, "plan pln-missing_sandbox: not started: POST /v1/run: HTTP 404") < strings.Index(r.Stderr, "Run "+ids[0]+": COMPLETED") {
		t.Errorf("the failed start is not in the summary:\n%s", r.Stderr)
	}
	// So does the JUnit file: a suite of its own whose error says why, so a
	// dashboard that reads only JUnit does not show one plan fewer, green.
	data, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(data), ids[0]) {
		t.Fatalf("JUnit: %v\n%s", err, data)
	}
	cmdtest.Contains(t, "JUnit", string(data), `<testsuite name="pln-missing_sandbox" tests="1" failures="0" errors="1"`,
		`<error message="POST /v1/run: HTTP 404 Not Found: test plan pln-missing_sandbox not found in project proj-demo_sandbox" type="NOT_STARTED">`)
	// With no plan started at all, the reports are still written.
	r = e.Run("run", "start", "--plan", "pln-missing_sandbox", "--plan", "pln-gone_sandbox", "--wait", "--junit", junit).Expect(t, 5)
	if data, err := os.ReadFile(junit); err != nil || strings.Count(string(data), `type="NOT_STARTED"`) != 2 {
		t.Errorf("JUnit of two plans not started: %v\n%s", err, data)
	}
	// Without --wait: the started run is printed, the exit code is the start's.
	r = e.Run("run", "start", "--plan", "pln-missing_sandbox", "--plan", sandbox.PlanPassing, "-q").Expect(t, 5)
	if lines := strings.Split(strings.TrimSpace(r.Stdout), "\n"); len(lines) != 1 || lines[0] == "" {
		t.Errorf("stdout %q", r.Stdout)
	}
}

func TestSeveralPlansDryRunPrintsARequestPerPlan(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, "--plan", sandbox.PlanFailing, "--branch", "main", "--dry-run").Expect(t, 0)
	if n := strings.Count(r.Stdout, "POST "+e.Sandbox.BaseURL+"/v1/run\n"); n != 2 {
		t.Errorf("%d requests:\n%s", n, r.Stdout)
	}
	cmdtest.Contains(t, "stdout", r.Stdout, `"testPlanShortId": "`+sandbox.PlanPassing+`"`, `"testPlanShortId": "`+sandbox.PlanFailing+`"`)
	if e.Requests(postRun) != 0 {
		t.Error("a dry run sent a request")
	}
}
