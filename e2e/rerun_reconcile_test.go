package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// rerunLost reruns a finished run with the faults given to its POSTs and
// returns the original's id, the result and the runs the rerun created.
func rerunLost(t *testing.T, faults ...cmdtest.WriteFault) (string, cmdtest.Result, int) {
	t.Helper()
	e := cmdtest.New(t)
	id := finishedRun(t, e, sandbox.PlanFailing, 1)
	before := e.Sandbox.Server.Stats().RunsStarted
	e.FaultWrites("POST /v1/run/"+id, faults...)
	r := e.Run("run", "rerun", id, "--failed-only", "-q")
	return id, r, e.Sandbox.Server.Stats().RunsStarted - before
}

func TestLostRerunAnswerAdoptsTheNewRun(t *testing.T) {
	orig, r, created := rerunLost(t, cmdtest.LoseAnswer)
	r.Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but run "+id+" was created: using it")
	if created != 1 || id == orig {
		t.Errorf("%d runs created; adopted %q, the original is %q", created, id, orig)
	}
}

// The original run matches the rerun's plan, trigger, branch and commit,
// but it existed before the request: it is never adopted.
func TestLostRerunIsSentOnceMoreNeverAdoptingTheOriginal(t *testing.T) {
	orig, r, created := rerunLost(t, cmdtest.LoseRequest)
	r.Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "sending POST /v1/run/"+orig+" once more")
	if id := strings.TrimSpace(r.Stdout); created != 1 || id == orig {
		t.Errorf("%d runs created; printed %q, the original is %q", created, id, orig)
	}
}

// A lost rerun of a run the list shows without its branch, commit, trigger
// or plan: the rerun's, copied from the original, are then unknown, not
// empty, so a new run that shows them may be the rerun's. It is named with
// its run wait line (exit 6), and the POST is not sent again: that would
// start a second rerun.
func TestLostRerunNamesANewRunWhenTheListLeftOutTheOriginals(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(map[string]any)
		what string
	}{
		"no branch":   {func(run map[string]any) { delete(run, "branch") }, "the original's branch"},
		"null commit": {func(run map[string]any) { run["commitHash"] = nil }, "the original's commit"},
		"no trigger":  {func(run map[string]any) { delete(run, "trigger") }, "the original's trigger"},
		"no plan":     {func(run map[string]any) { delete(run, "testPlanShortId") }, "the original's test plan"},
	} {
		t.Run(name, func(t *testing.T) {
			e := cmdtest.New(t)
			orig := strings.TrimSpace(e.Run("run", "start", "--plan", sandbox.PlanFailing, "--trigger", "CODEHOST", "--actor", "me",
				"--branch", "main", "--commit", "abc123", "--commit-message", "m", "--repository", "o/r", "--wait", "-q").Expect(t, 1).Stdout)
			e.FaultWrites("POST /v1/run/"+orig, cmdtest.LoseAnswer)
			listLeavesOut(t, e, func(run map[string]any) {
				if run["shortId"] == orig {
					tc.edit(run)
				}
			})
			r := e.Run("run", "rerun", orig, "--failed-only", "-q")
			if reruns(e) != 1 {
				t.Errorf("%d reruns reached the sandbox, want 1\n%s", reruns(e), r.Stderr)
			}
			r.Expect(t, 6)
			ids := e.Run("run", "list", "--plan", sandbox.PlanFailing, "--limit", "1", "--jq", ".runs[].shortId").Expect(t, 0)
			id := strings.TrimSpace(ids.Stdout)
			cmdtest.Contains(t, "stderr", r.Stderr, "run "+id+" was created since; it was not adopted, as the list of runs cannot show "+tc.what+".",
				"\n  testctl run wait "+id+"\n")
			if id == orig || strings.Contains(r.Stderr, "once more") || r.Stdout != "" {
				t.Errorf("named %s (the original is %s); stdout %q:\n%s", id, orig, r.Stdout, r.Stderr)
			}
		})
	}
}
