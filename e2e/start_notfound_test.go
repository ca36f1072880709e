package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// A plan the service does not know (404) says where plan ids are found:
// the plans of recent runs, and under --sandbox the fixtures' names. The
// exit code stays 5.
func TestUnknownPlanGetsAHint(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", "pln-nope_a1b2").Expect(t, 5)
	cmdtest.Contains(t, "unknown plan", r.Stderr, "not found", "testctl run list", "pln_<id> or pln-<slug>_<id>")
	r = e.Run("--sandbox", "run", "start", "--plan", "pln-nope_sandbox").Expect(t, 5)
	cmdtest.Contains(t, "unknown plan under --sandbox", r.Stderr, "pln-passing_sandbox", "pln-failing_sandbox", "pln-flaky_sandbox")
	r = e.Run("--sandbox", "run", "start", "--plan", "pln-nope_sandbox", "--plan", "pln-passing_sandbox").Expect(t, 5)
	if !strings.Contains(r.Stderr, "was not started") || !strings.Contains(r.Stderr, "The sandbox's plans: pln-passing_sandbox") {
		t.Errorf("several plans, one unknown:\n%s", r.Stderr)
	}
}

// An unknown plan's error is printed once, where the user reads why the
// command failed: with --wait in the failure story, with its hint below it;
// without, as the command's error. One plan or several, the same.
func TestUnknownPlanErrorIsPrintedOnce(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{
		{"--plan", "pln-nope_x"},
		{"--plan", "pln-nope_x", "--wait"},
		{"--plan", "pln-nope_x", "--plan", "pln-passing_sandbox"},
		{"--plan", "pln-nope_x", "--plan", "pln-passing_sandbox", "--wait"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := e.Run(append([]string{"--sandbox", "run", "start"}, args...)...).Expect(t, 5)
			if n := strings.Count(r.Stderr, "HTTP 404"); n != 1 {
				t.Errorf("the 404 printed %d times, want once:\n%s", n, r.Stderr)
			}
			if n := strings.Count(r.Stderr, "The sandbox's plans: pln-passing_sandbox"); n != 1 {
				t.Errorf("the hint printed %d times, want once:\n%s", n, r.Stderr)
			}
			if strings.Contains(strings.Join(args, " "), "--wait") {
				cmdtest.Contains(t, "the failure story", r.Stderr, "✗ plan pln-nope_x: not started: POST /v1/run: HTTP 404",
					"not started: POST /v1/run: HTTP 404 Not Found: test plan pln-nope_x not found in project proj-demo_sandbox\n  The sandbox's plans: ")
			}
		})
	}
}
