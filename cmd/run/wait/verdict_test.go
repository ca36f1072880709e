package wait_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

func TestEachPlanExitsWithItsVerdict(t *testing.T) {
	cases := []struct {
		plan  string
		flags []string
		code  int
		says  string
	}{
		{sandbox.PlanPassing, nil, 0, "COMPLETED · PASSED"},
		{sandbox.PlanFailing, nil, 1, "COMPLETED · FAILED"},
		{sandbox.PlanErroring, nil, 3, "ERROR"},
		{sandbox.PlanCancelled, nil, 3, "CANCELLED"},
		{sandbox.PlanSkipped, nil, 0, "counts as a pass (use --fail-on-skipped"},
		{sandbox.PlanSkipped, []string{"--fail-on-skipped"}, 1, "failing because of --fail-on-skipped"},
	}
	for _, c := range cases {
		t.Run(c.plan+strings.Join(c.flags, ""), func(t *testing.T) {
			e := cmdtest.New(t)
			id := e.StartRun(t, c.plan)
			start := e.Clock.Now()
			// --evidence 0: the evidence's own read of the run is not polling.
			r := e.Run(append([]string{"run", "wait", id, "--evidence", "0"}, c.flags...)...).Expect(t, c.code)
			cmdtest.Contains(t, "stderr", r.Stderr, c.says)
			cmdtest.CheckBudget(t, e.Requests(cmdtest.GetRun), e.ElapsedSince(start), 5*time.Second, 0)
			if e.ElapsedSince(start) > 15*time.Second {
				t.Errorf("completion noticed after %s", e.ElapsedSince(start))
			}
		})
	}
}

func TestSeveralRunsExitWithTheLargestCode(t *testing.T) {
	e := cmdtest.New(t)
	ids := []string{e.StartRun(t, sandbox.PlanPassing), e.StartRun(t, sandbox.PlanErroring), e.StartRun(t, sandbox.PlanFailing)}
	r := e.Run(append([]string{"run", "wait", "-o", "json", "--interval", "2s", "--evidence", "0"}, ids...)...).Expect(t, 3)
	var runs []map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &runs); err != nil || len(runs) != 3 {
		t.Fatalf("stdout is not an array of 3 runs: %v\n%s", err, r.Stdout)
	}
	for i, want := range []string{"COMPLETED", "ERROR", "COMPLETED"} {
		if runs[i]["shortId"] != ids[i] || runs[i]["status"] != want {
			t.Errorf("run %d: %v %v", i, runs[i]["shortId"], runs[i]["status"])
		}
	}
	// Each run keeps its own schedule: the failing one (12 s) needs 7 polls
	// at 2 s, the others stop as soon as they end.
	if n := e.Requests(cmdtest.GetRun); n > 7+4+6 {
		t.Errorf("%d requests for three runs", n)
	}
}

func TestTimeoutExitsSevenWithResumeCommandAndPartialJUnit(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanSlow)
	junit := e.Dir + "/partial.xml"
	start := e.Clock.Now()
	r := e.Run("run", "wait", id, "--timeout", "10m", "--junit", junit).Expect(t, 7)
	cmdtest.Contains(t, "stderr", r.Stderr, "timed out after 10m0s", "still RUNNING", "testctl run wait "+id)
	if got := e.ElapsedSince(start); got != 10*time.Minute {
		t.Errorf("the wait lasted %s of fake time, want exactly 10m", got)
	}
	cmdtest.CheckBudget(t, e.Requests(cmdtest.GetRun), 10*time.Minute, 5*time.Second, 0)
	doc := cmdtest.ReadJUnitFile(t, junit)
	if len(doc.Suites) != 1 || doc.Tests != 5 || doc.Skipped != 4 || doc.Errors != 1 {
		t.Fatalf("partial report: %+v", doc)
	}
	cases := doc.Suites[0].Cases
	if e := cases[4].Error; e == nil || e.Type != "TIMED_OUT" || !strings.Contains(e.Message, "still RUNNING when the wait timed out") {
		t.Errorf("the run's own timeout is not in the report: %+v", cases[4])
	}
	for _, c := range cases[:4] {
		if c.Skipped == nil || !strings.Contains(c.Skipped.Message, "when the wait timed out") {
			t.Errorf("unfinished case not marked: %+v", c)
		}
	}
}

func TestInterruptExits130WithResumeCommand(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanSlow)
	ctx := cmdtest.CancelAt(e.Clock, e.Clock.Now().Add(20*time.Second))
	r := e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "wait", id).Expect(t, 130)
	cmdtest.Contains(t, "stderr", r.Stderr, "interrupted", "The run goes on", "testctl run wait "+id)
	// Polls at 0, 5, 10 and 15 s; the one due at 20 s meets the interruption.
	if n := e.Requests(cmdtest.GetRun); n != 4 {
		t.Errorf("%d polls before the interruption at 20 s, want 4", n)
	}
}

func TestAlreadyCancelledContextExits130(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanPassing)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "wait", id).Expect(t, 130)
	cmdtest.Contains(t, "stderr", r.Stderr, "testctl run wait "+id)
}

// SIGTERM, which CI runners send on cancel, ends the wait as Ctrl-C does
// (resume hint, partial JUnit, summary, outputs) with its own code, 143.
func TestSIGTERMExits143WithEverything130Does(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanSlow)
	out := e.GitHubActions()
	junit := e.Dir + "/partial.xml"
	ctx := cmdtest.TerminateAt(e.Clock, e.Clock.Now().Add(20*time.Second))
	r := e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "wait", id, "--junit", junit).Expect(t, 143)
	cmdtest.Contains(t, "stderr", r.Stderr, "Run "+id+": still RUNNING when the wait was terminated",
		"terminated: run "+id+" still RUNNING. The run goes on; resume waiting with:\n  testctl run wait "+id)
	if strings.Contains(r.Stderr, "interrupted") {
		t.Errorf("SIGTERM reported as an interruption:\n%s", r.Stderr)
	}
	doc := cmdtest.ReadJUnitFile(t, junit)
	if cases := doc.Suites[0].Cases; doc.Errors != 1 || cases[len(cases)-1].Error.Type != "TERMINATED" {
		t.Errorf("partial report: %+v", doc)
	}
	if got := cmdtest.ReadGitHubOutput(t, out); got["run_status"] != "RUNNING" || !strings.Contains(got["runs_json"], `"exitCode":143`) {
		t.Errorf("outputs %q", got)
	}
}

// The resume hint asks the same service: the flags that chose it, never
// the key.
func TestResumeHintCarriesTheServiceFlags(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanSlow)
	config := e.WriteFile("prod.yaml", "profiles:\n  prod:\n    base_url: "+e.Getenv("TESTCTL_BASE_URL")+"\n")
	e.Setenv("TESTCTL_BASE_URL", "")
	r := e.Run("--config-file", config, "--profile", "prod", "--api-key", sandbox.ProjectKey,
		"run", "wait", id, "--timeout", "1m").Expect(t, 7)
	cmdtest.Contains(t, "stderr", r.Stderr, "\n  testctl --profile prod --config-file "+config+" run wait "+id+"\n")
	if strings.Contains(r.Stderr, sandbox.ProjectKey) {
		t.Errorf("the key is in the hint:\n%s", r.Stderr)
	}
}

// Under --sandbox the run ends with the process: no command that would
// exit 5, but how to keep a sandbox.
func TestResumeHintUnderSandbox(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("--sandbox", "run", "start", "--plan", sandbox.PlanSlow, "--wait", "--timeout", "1m").Expect(t, 7)
	cmdtest.Contains(t, "stderr", r.Stderr, "The run ended with the embedded sandbox", "testctl sandbox")
	if strings.Contains(r.Stderr, "testctl run wait") {
		t.Errorf("a resume command for a run that ended with the sandbox:\n%s", r.Stderr)
	}
}

func TestUsageErrorsSendNothing(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{
		{"run", "wait"},
		{"run", "wait", ""},
		{"run", "wait", "a/b"},
		{"run", "wait", "r1", "--interval", "0s"},
		{"run", "wait", "r1", "--timeout", "-1m"},
		{"run", "wait", "r1", "--junit", e.Dir + "/missing/r.xml"},
	} {
		e.Run(args...).Expect(t, 2)
	}
	if n := e.Requests(cmdtest.GetRun); n != 0 {
		t.Errorf("%d requests after usage errors", n)
	}
}

// A verdict whose report (JUnit, HTML) could not be written exits with
// the larger code: 8 for a local failure, even over a pass or a failed run.
func TestUnwritableReportExits8(t *testing.T) {
	e := cmdtest.New(t)
	for _, report := range []struct{ flag, what string }{{"--junit", "JUnit"}, {"--html", "HTML"}} {
		for plan := range map[string]bool{sandbox.PlanPassing: true, sandbox.PlanFailing: true} {
			id := e.StartRun(t, plan)
			r := e.Run("run", "wait", id, report.flag, "/proc/testctl-report").Expect(t, 8)
			cmdtest.Contains(t, "stderr", r.Stderr, "error: writing the "+report.what+" report")
		}
	}
	id := e.StartRun(t, sandbox.PlanPassing)
	e.GitHubActions()
	e.Setenv("GITHUB_OUTPUT", "/proc/testctl-output")
	r := e.Run("run", "wait", id).Expect(t, 8)
	cmdtest.Contains(t, "stderr", r.Stderr, "writing the step outputs")
}
