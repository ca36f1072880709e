package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
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
