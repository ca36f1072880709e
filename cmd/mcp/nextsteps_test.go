package mcp

import (
	"testing"

	"github.com/testctl/testctl/pkg/nextstep"
)

// A command line becomes the tool call that does the same, its ids and
// flags as the tool's arguments, each call once; what no tool does stays a
// command, the user's.
func TestToolStepsWordCommandsAsCalls(t *testing.T) {
	r := newToolSteps()
	for _, c := range []struct {
		step nextstep.Step
		want string
	}{
		{nextstep.Command("logs", "r1-2", "--kind", "console", "--warnings=false"), `get_logs {"test_case_run": "r1-2", "kind": "console", "warnings": false}`},
		{nextstep.Command("logs", "r1-2", "--kind", "console", "--warnings=false"), ""}, // said already
		{nextstep.Wait([]string{"--base-url", "http://x"}, []string{"r1", "-r2"}), `wait_run {"run_ids": ["r1", "-r2"]}`},
		{nextstep.Command("run", "rerun", "r1", "--failed-only", "--wait"), `rerun_failed {"run_id": "r1"}`},
		{nextstep.Command("run", "list", "--plan", "pln-x", "--limit", "5"), `list_runs {"plan": "pln-x", "limit": 5}`},
		{nextstep.Command("testcase", "list", "--label", "a", "--label", "b"), `list_test_cases {"labels": ["a", "b"]}`},
		{nextstep.Command("run", "get", `r"1`, "--issues"), `get_run {"run_id": "r\"1", "issues": true}`},
		{nextstep.Command("run", "list", "--all"), "(for the user, in a shell: testctl run list --all)"},
		{nextstep.Command("config", "set", "project", "p"), "(for the user, in a shell: testctl config set project p)"},
		{nextstep.Step{Args: []string{"auth", "login"}, ForUser: true}, "(for the user, in a shell: testctl auth login)"},
	} {
		if got := r.Step(c.step); got != c.want {
			t.Errorf("%v: %q, want %q", c.step.Args, got, c.want)
		}
	}
	if got := r.Inline(nextstep.Command("run", "get", "r9")); got != `get_run {"run_id": "r9"}` {
		t.Errorf("inline %q", got)
	}
	if got := r.Usage("testctl run wait"); got != "The arguments of wait_run are in its input schema." {
		t.Errorf("usage %q", got)
	}
}
