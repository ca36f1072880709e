package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// --fail-on new with nothing to compare with (no --baseline, no quarantine
// file) says on stderr, once, that every failure is then new, and so fails
// the gate; with a baseline or a quarantine file, or --fail-on any, it says
// nothing of the kind.
func TestFailOnNewWithoutABaselineSaysEveryFailureIsNew(t *testing.T) {
	e := cmdtest.New(t)
	const said = "every failure is new without a baseline"
	quarantine := e.WriteFile("quarantine.yaml", "- name: Nothing of the sandbox's\n  owner: \"@alice\"\n  until: 2099-12-31\n")
	id := e.StartRun(t, sandbox.PlanFailing)
	for _, tc := range []struct {
		args []string
		says bool
		code int
	}{
		{[]string{"run", "wait", id, "--fail-on", "new"}, true, 1},
		{[]string{"run", "report", id, "--fail-on", "new"}, true, 1},
		{[]string{"--sandbox", "run", "start", "--plan", sandbox.PlanFailing, "--wait", "--fail-on", "new"}, true, 1},
		// The sandbox's main has the same two failures: both known.
		{[]string{"run", "report", id, "--fail-on", "new", "--baseline", "main"}, false, 0},
		{[]string{"run", "report", id, "--fail-on", "new", "--quarantine", quarantine}, false, 1},
		{[]string{"run", "report", id}, false, 1},
	} {
		r := e.Run(append(tc.args, "--evidence", "0")...).Expect(t, tc.code)
		if n := strings.Count(r.Stderr, said); n != map[bool]int{true: 1, false: 0}[tc.says] {
			t.Errorf("%s: %q said %d times:\n%s", strings.Join(tc.args, " "), said, n, r.Stderr)
		}
	}
}
