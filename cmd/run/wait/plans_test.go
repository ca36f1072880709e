package wait_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// With several plans, each run is named with its plan wherever it shows:
// the progress lines, the summary, the annotations and runs_json.
func TestSeveralPlansAreNamedWhereverARunIs(t *testing.T) {
	e := cmdtest.New(t)
	outputs := e.GitHubActions()
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, "--plan", sandbox.PlanFailing, "--wait", "--evidence", "0").Expect(t, 1)
	var progress []string
	for _, line := range strings.Split(r.Stderr, "\n") {
		if strings.HasPrefix(line, "run ") && strings.Contains(line, "COMPLETED") {
			progress = append(progress, line)
		}
	}
	if len(progress) != 2 || !strings.Contains(progress[0], "— plan ") || !strings.Contains(progress[1], "— plan ") {
		t.Errorf("final progress lines do not name their plans: %q", progress)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "— plan Smoke (passing)", "  plan Checkout regression (failing)",
		"(Checkout regression (failing))%3A Apply an expired coupon")
	var runs []struct{ ShortID, Plan string }
	if err := json.Unmarshal([]byte(cmdtest.ReadGitHubOutput(t, outputs)["runs_json"]), &runs); err != nil || len(runs) != 2 ||
		runs[0].Plan != "Smoke (passing)" || runs[1].Plan != "Checkout regression (failing)" {
		t.Errorf("runs_json %+v (%v)", runs, err)
	}
}
