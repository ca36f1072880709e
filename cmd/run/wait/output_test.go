package wait_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

func TestOffTerminalOneLinePerChangeOfState(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanPassing)
	r := e.Run("run", "wait", id, "--interval", "1s").Expect(t, 0)
	var progress []string
	for _, line := range strings.Split(r.Stderr, "\n") {
		if strings.HasPrefix(line, "run "+id) {
			progress = append(progress, line)
		}
	}
	// INITIATED, RUNNING, five test cases, COMPLETED: eleven polls, eight lines.
	if len(progress) != 8 {
		t.Fatalf("%d progress lines, want 8:\n%s", len(progress), r.Stderr)
	}
	if progress[0] != "run "+id+" INITIATED" || progress[1] != "run "+id+" RUNNING" ||
		!strings.HasPrefix(progress[7], "run "+id+" COMPLETED · PASSED after 00:10: 5 passed") {
		t.Errorf("progress:\n%s", strings.Join(progress, "\n"))
	}
	if strings.Contains(r.Stderr, "\x1b[") {
		t.Error("colour off a terminal")
	}
	// The table of test cases is the data on stdout.
	cmdtest.Contains(t, "stdout", r.Stdout, "SHORT ID\tNAME\tSTATUS\tRESULT\tRESULT TITLE", "\tLog in with email and password\tCOMPLETED\tPASSED\tLogged in")
}

func TestTerminalShowsTheLiveView(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	r := e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "wait", id).Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "✓", "✗", "Apply an expired coupon", "\x1b[")
	// Intermediate statuses live in the spinner line, redrawn in place
	// ("\r\x1b[J⣾ run … RUNNING …\r"), not in lines of their own.
	for line := range strings.Lines(r.Stderr) {
		if strings.HasPrefix(line, "run "+id+" RUNNING") {
			t.Errorf("a status line per change on a terminal:\n%s", r.Stderr)
		}
	}
	cmdtest.Contains(t, "summary", r.Stderr, "Expired coupon SPRING-2019 was accepted", "The goal requires the expired coupon")
}

func TestJSONStdoutIsDataOnly(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	r := e.Run("run", "wait", id, "-o", "json").Expect(t, 1)
	var run map[string]any
	dec := json.NewDecoder(strings.NewReader(r.Stdout))
	if err := dec.Decode(&run); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.Stdout)
	}
	if run["shortId"] != id || run["status"] != "COMPLETED" || run["result"] != "FAILED" {
		t.Errorf("run: %v", run)
	}
	if cases, _ := run["runTestCases"].([]any); len(cases) != 7 {
		t.Errorf("%d test cases in the JSON", len(cases))
	}
	// The reasons still reach a CI log, on stderr.
	cmdtest.Contains(t, "stderr", r.Stderr, "Run "+id+": COMPLETED · FAILED", "POST /api/payments returned 502")

	r = e.Run("run", "wait", id, "--jq", ".result").Expect(t, 1)
	if r.Stdout != "FAILED\n" {
		t.Errorf("--jq stdout %q", r.Stdout)
	}
}

func TestJUnitReportMatchesTheRun(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	path := e.Dir + "/results.xml"
	e.Run("run", "wait", id, "--junit", path).Expect(t, 1)
	doc := cmdtest.ReadJUnitFile(t, path)
	if len(doc.Suites) != 1 || doc.Tests != 7 || doc.Failures != 2 || doc.Skipped != 1 || doc.Errors != 0 {
		t.Fatalf("report counts: tests=%d failures=%d skipped=%d errors=%d", doc.Tests, doc.Failures, doc.Skipped, doc.Errors)
	}
	// Named after the plan, not the run, so CI test history matches test
	// cases across builds; the run is in the properties.
	s := doc.Suites[0]
	if s.Name != "Checkout regression (failing)" || s.Cases[0].Classname != s.Name || s.Cases[0].Name != "Log in with email and password" {
		t.Errorf("suite %q, first case %q of class %q", s.Name, s.Cases[0].Name, s.Cases[0].Classname)
	}
	props := map[string]string{}
	for _, p := range s.Properties {
		props[p.Name] = p.Value
	}
	if props["run_short_id"] != id || !strings.HasSuffix(props["run_url"], "/"+id) || props["run_attempt"] != "1" {
		t.Errorf("properties %v", props)
	}
	if s.Time == "" {
		t.Error("no time attribute, though the run list gives start and finish times")
	}
	var failed []string
	for _, c := range s.Cases {
		if c.Failure != nil {
			failed = append(failed, c.Name+": "+c.Failure.Message)
			if c.Failure.Text == "" {
				t.Errorf("failure of %s carries no evaluation", c.Name)
			}
		}
	}
	if len(failed) != 2 || !strings.Contains(failed[0], "Expired coupon SPRING-2019 was accepted") {
		t.Errorf("failures: %q", failed)
	}
}

func TestGitHubActionsFiles(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	summary := e.WriteFile("gh/summary.md", "# earlier step\n")
	outputs := e.WriteFile("gh/output", "")
	e.Setenv("GITHUB_ACTIONS", "true")
	e.Setenv("GITHUB_STEP_SUMMARY", summary)
	e.Setenv("GITHUB_OUTPUT", outputs)
	r := e.Run("run", "wait", id).Expect(t, 1)

	if n := strings.Count(r.Stderr, "::error title="); n != 2 {
		t.Errorf("%d annotations, want one per failed test case:\n%s", n, r.Stderr)
	}
	cmdtest.Contains(t, "annotations", r.Stderr, "::error title=testctl run "+id+" (Checkout regression (failing))%3A Apply an expired coupon::FAILED: Expired coupon")
	if strings.Contains(r.Stdout, "::error") {
		t.Error("annotations on stdout, which is for data")
	}
	md, _ := os.ReadFile(summary)
	cmdtest.Contains(t, "step summary", string(md), "# earlier step\n", "## ❌ testctl: failed (exit 1)",
		"### ❌ Checkout regression \\(failing\\) · run `"+id+"` · `"+sandbox.PlanFailing+"`: COMPLETED · FAILED",
		"| ❌ | Apply an expired coupon | FAILED |", "<p>The goal requires the expired coupon")
	out, _ := os.ReadFile(outputs)
	for _, want := range []string{"run_short_id<<", "\n" + id + "\n", "run_status<<", "\nCOMPLETED\n", "run_result<<", "\nFAILED\n", "run_url<<"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
		}
	}
}

func TestOutsideGitHubActionsNoAnnotations(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	r := e.Run("run", "wait", id).Expect(t, 1)
	if strings.Contains(r.Stderr, "::error") {
		t.Error("annotations outside GitHub Actions")
	}
}

// NO_COLOR removes colour and nothing else: on a terminal the wait keeps
// its live view (test cases scrolling above a redrawn line), without a
// colour sequence; the line mode is for what is not a terminal.
func TestTerminalWithNoColorKeepsTheLiveView(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("NO_COLOR", "1")
	id := e.StartRun(t, sandbox.PlanPassing)
	r := e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "wait", id).Expect(t, 0)
	if regexp.MustCompile(`\x1b\[[0-9;]*m`).MatchString(r.Stderr) {
		t.Errorf("colour with NO_COLOR:\n%q", r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "  ✓ Log in with email and password", "✓ Run "+id+": COMPLETED · PASSED")
	if strings.Contains(r.Stderr, "run "+id+" RUNNING\n") {
		t.Errorf("the line mode on a terminal under NO_COLOR:\n%s", r.Stderr)
	}
}

// run wait and run get print a run's test cases as one table: same headers,
// same columns, same truncation on a terminal.
func TestWaitAndGetShareTheCaseTable(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	for _, ro := range []cmdtest.RunOptions{{}, {TTY: true}} {
		e.Setenv("NO_COLOR", "1")
		waited := e.RunWith(ro, "run", "wait", id).Expect(t, 1)
		got := e.RunWith(ro, "run", "get", id).Expect(t, 0)
		table := got.Stdout // its "Run …: COMPLETED, FAILED" line is on stderr
		if waited.Stdout != table || !strings.Contains(table, "RESULT TITLE") {
			t.Errorf("tty=%v: run wait printed\n%s\nrun get printed\n%s", ro.TTY, waited.Stdout, table)
		}
	}
	other := e.StartRun(t, sandbox.PlanPassing)
	r := e.Run("run", "wait", id, other).Expect(t, 1)
	cmdtest.Contains(t, "several runs", r.Stdout, "RUN\tSHORT ID\tNAME\tSTATUS\tRESULT\tRESULT TITLE\n", other+"\t")
}

// With several plans, each run is named with its plan wherever it shows:
// the progress lines, the summary, the annotations and runs_json.
func TestSeveralPlansAreNamedWhereverARunIs(t *testing.T) {
	e := cmdtest.New(t)
	outputs := e.GitHubActions()
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, "--plan", sandbox.PlanFailing, "--wait", "--evidence", "0").Expect(t, 1)
	var progress []string
	for _, line := range strings.Split(r.Stderr, "\n") {
		if strings.HasPrefix(line, "run ") && strings.Contains(line, "COMPLETED") {
			progress = append(progress, line)
		}
	}
	if len(progress) != 2 || !strings.Contains(progress[0], "— plan ") || !strings.Contains(progress[1], "— plan ") {
		t.Errorf("final progress lines do not name their plans: %q", progress)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "— plan Smoke (passing)", "  plan Checkout regression (failing)",
		"(Checkout regression (failing))%3A Apply an expired coupon")
	var runs []struct{ ShortID, Plan string }
	if err := json.Unmarshal([]byte(cmdtest.ReadGitHubOutput(t, outputs)["runs_json"]), &runs); err != nil || len(runs) != 2 ||
		runs[0].Plan != "Smoke (passing)" || runs[1].Plan != "Checkout regression (failing)" {
		t.Errorf("runs_json %+v (%v)", runs, err)
	}
}

// A --jq expression that fails on the data, after a FAILED run, loses no
// report: the files come first, stdout last, and the exit code is the
// larger of the verdict's (1) and the failure's (2).
func TestStdoutFailureKeepsTheReports(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
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
	id := e.StartRun(t, sandbox.PlanFailing)
	for i := 0; i < 25; i++ {
		e.StartRun(t, sandbox.PlanPassing)
	}
	junit := e.Dir + "/junit.xml"
	e.Run("run", "wait", id, "--junit", junit, "--evidence", "0").Expect(t, 1)
	doc := cmdtest.ReadJUnitFile(t, junit)
	if len(doc.Suites) != 1 || doc.Suites[0].Name != "Checkout regression (failing)" {
		t.Errorf("suite %q, want the plan's name", doc.Suites[0].Name)
	}
	if data, _ := os.ReadFile(junit); !strings.Contains(string(data), `name="plan_short_id" value="`+sandbox.PlanFailing+`"`) {
		t.Errorf("no plan short id in the properties:\n%s", data)
	}
}

// On a terminal the failure story is the same, each line of evidence cut
// to the terminal's width (the commands stay whole, to be copied).
func TestFailureStoryOnATerminal(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 70}, "run", "wait", id, "--no-color").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "1. ✗ Apply an expired coupon FAILED", "2. ✗ Pay with a declined card FAILED",
		"POST /api/payments 502", "more: testctl logs "+id+"-3 --kind network --status errors")
	story := r.Stderr[strings.Index(r.Stderr, "1. ✗"):]
	for _, line := range strings.Split(story, "\n") {
		if n := len([]rune(line)); n > 70 && !strings.Contains(line, "testctl ") && strings.HasPrefix(line, "      +") {
			t.Errorf("a line of evidence of %d columns on a 70-column terminal: %q", n, line)
		}
	}
}
