package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
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

// A lost create whose test case the list shows without its goal, name or
// application: a field left out is unknown, not another value, so the test
// case may be this create's. It is named with the command that lists it
// (exit 6), and the POST is not sent again: that would create a second.
func TestLostCreateNamesATestCaseTheListShowsWithoutAField(t *testing.T) {
	for name, tc := range map[string]struct {
		edit func(map[string]any)
		what string
	}{
		"no goal":        {func(tc map[string]any) { delete(tc, "goal") }, "its goal"},
		"null goal":      {func(tc map[string]any) { tc["goal"] = nil }, "its goal"},
		"no name":        {func(tc map[string]any) { delete(tc, "name") }, "its name"},
		"no application": {func(tc map[string]any) { delete(tc, "applicationShortId") }, "its application"},
		"nothing at all": {func(tc map[string]any) { delete(tc, "goal"); delete(tc, "name"); delete(tc, "applicationShortId") },
			"its name, its application or its goal"},
	} {
		t.Run(name, func(t *testing.T) {
			e := cmdtest.New(t)
			e.FaultWrites(postTestCase, cmdtest.LoseAnswer)
			service := e.Getenv("TESTCTL_BASE_URL")
			pageLeavesOut(t, e, "/v1/test-cases", "testCases", tc.edit)
			r := e.Run(create()...)
			e.Setenv("TESTCTL_BASE_URL", service) // a list that shows all
			if n, created := e.Requests(postTestCase), e.Sandbox.Server.Stats().TestCasesCreated; n != 1 || created != 1 {
				t.Errorf("%d POSTs reached the service, %d test cases created; want 1 and 1\n%s", n, created, r.Stderr)
			}
			r.Expect(t, 6)
			ids := e.Run("testcase", "list", "--jq", `.testCases[] | select(.name == "Apply a coupon") | .id`).Expect(t, 0)
			id := strings.TrimSpace(ids.Stdout)
			cmdtest.Contains(t, "stderr", r.Stderr, "test case "+id+" was created since; it was not adopted, as the list of test cases cannot show "+tc.what+".",
				"\nIf it is this job's, use test case "+id+"; it is listed by:\n  testctl testcase list --app app_sandbox-web\n",
				"it was sent only once")
			if strings.Contains(r.Stderr, "once more") || strings.Contains(r.Stderr, "run wait") || r.Stdout != "" {
				t.Errorf("stdout %q; sent the create again, or named a run wait:\n%s", r.Stdout, r.Stderr)
			}
		})
	}
}

// Named after the create was sent once more, the test case's message says
// the request was sent twice, not once.
func TestLostCreateNamedAfterTheSecondSendSaysItWasSentTwice(t *testing.T) {
	e := cmdtest.New(t)
	e.FaultWrites(postTestCase, cmdtest.LoseRequest, cmdtest.LoseAnswer)
	pageLeavesOut(t, e, "/v1/test-cases", "testCases", func(tc map[string]any) { delete(tc, "goal") })
	r := e.Run(create()...)
	// The first POST is lost on its way: only the second reaches it.
	if n, created := e.Requests(postTestCase), e.Sandbox.Server.Stats().TestCasesCreated; n != 1 || created != 1 {
		t.Errorf("%d POSTs reached the service, %d test cases created; want 1 and 1\n%s", n, created, r.Stderr)
	}
	r.Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr, "sending POST /v1/test-cases once more", "cannot show its goal.",
		"\nOtherwise send the request again: it was sent twice, and no test case appeared within 30s of the first.\n")
	if strings.Contains(r.Stderr, "only once") {
		t.Errorf("says it was sent once:\n%s", r.Stderr)
	}
}
