package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
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
