package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/cmdtest"
)

// createLost runs `testcase create` with the faults given to its POSTs and
// returns the result and how many test cases the sandbox created.
func createLost(t *testing.T, e *cmdtest.Env, faults ...cmdtest.WriteFault) (cmdtest.Result, int) {
	t.Helper()
	before := e.Sandbox.Server.Stats().TestCasesCreated
	e.FaultWrites(postTestCase, faults...)
	r := e.Run(create()...)
	return r, e.Sandbox.Server.Stats().TestCasesCreated - before
}

func TestLostCreateAnswerAdoptsTheTestCase(t *testing.T) {
	e := cmdtest.New(t)
	r, created := createLost(t, e, cmdtest.LoseAnswer)
	r.Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but test case "+id+" was created: using it", "GENERATING")
	if created != 1 || len(id) != 36 {
		t.Errorf("%d test cases created, printed %q", created, id)
	}
	r = e.Run("testcase", "list", "--jq", `.testCases[] | select(.name == "Apply a coupon") | .id`).Expect(t, 0)
	if strings.TrimSpace(r.Stdout) != id {
		t.Errorf("the list holds %q, the command printed %q", r.Stdout, id)
	}
}

func TestLostCreateIsSentOnceMoreAfterTheDelay(t *testing.T) {
	e := cmdtest.New(t)
	t0 := e.Clock.Now()
	r, created := createLost(t, e, cmdtest.LoseRequest)
	r.Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "no test case appeared within 30s: sending POST /v1/test-cases once more")
	if created != 1 || e.Clock.Now().Sub(t0) < 30*time.Second {
		t.Errorf("%d created, after %s", created, e.Clock.Now().Sub(t0))
	}
}

func TestLostCreateWithSeveralCandidatesExits6(t *testing.T) {
	e := cmdtest.New(t)
	r, created := createLost(t, e, cmdtest.DeliverTwice)
	r.Expect(t, 6)
	ids := e.Run("testcase", "list", "--jq", `.testCases[] | select(.name == "Apply a coupon") | .id`).Expect(t, 0)
	if created != 2 || len(strings.Fields(ids.Stdout)) != 2 {
		t.Fatalf("%d created; listed %q", created, ids.Stdout)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, strings.Fields(ids.Stdout)...)
}

// A test case of the same name and application that existed before the
// request is never taken for the one it created.
func TestLostCreateNeverAdoptsAnOlderTestCase(t *testing.T) {
	e := cmdtest.New(t)
	old, _ := createLost(t, e)
	old.Expect(t, 0)
	r, created := createLost(t, e, cmdtest.LoseRequest)
	r.Expect(t, 0)
	if id := strings.TrimSpace(r.Stdout); id == strings.TrimSpace(old.Stdout) || created != 1 {
		t.Errorf("printed %q (the older one is %q), %d created\n%s", id, old.Stdout, created, r.Stderr)
	}
}
