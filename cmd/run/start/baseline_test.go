package start_test

import (
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// The story of the README: one new and one known failure.
func TestStartWaitWithBaseline(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("--sandbox", "run", "start", "--plan", sandbox.PlanBaseline, "--branch", "feature", "--wait", "--baseline", "main",
		"--evidence", "0").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "against run b", "on main", "failures: 1 new failure · 1 known")
}

// Bad input is said before a run is started.
func TestStartBaselineBadInputStartsNothing(t *testing.T) {
	e := cmdtest.New(t)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--wait", "--quarantine", e.Dir + "/none.yaml"}, "no such file"},
		{[]string{"--wait", "--fail-on", "some"}, "--fail-on"},
		{[]string{"--baseline", "main"}, "--baseline applies to --wait"},
		{[]string{"--fail-on", "new"}, "--fail-on applies to --wait"},
	} {
		r := e.Run(append([]string{"run", "start", "--plan", sandbox.PlanBaseline}, c.args...)...).Expect(t, 2)
		cmdtest.Contains(t, "stderr", r.Stderr, c.says)
	}
	if n := e.Requests("POST /v1/run"); n != 0 {
		t.Errorf("%d runs started", n)
	}
}
