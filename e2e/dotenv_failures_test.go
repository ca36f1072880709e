package e2e_test

import (
	"path/filepath"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// The dotenv report counts new and known failures as the GitHub outputs
// do, when a baseline (or a quarantine file) classed them; without one it
// names no count, as GitHub gets none.
func TestDotenvCountsNewAndKnownFailures(t *testing.T) {
	e := cmdtest.New(t)
	outputs := e.GitHubActions()
	dotenv := filepath.Join(e.Dir, "testctl.env")
	e.Run("--sandbox", "run", "start", "--plan", sandbox.PlanBaseline, "--branch", "feature", "--wait", "--baseline", "main",
		"--evidence", "0", "--dotenv", dotenv).Expect(t, 1)
	env := cmdtest.ReadDotenv(t, dotenv)
	cmdtest.WantValues(t, "dotenv", env, map[string]string{"TESTCTL_NEW_FAILURES": "1", "TESTCTL_KNOWN_FAILURES": "1", "TESTCTL_EXIT_CODE": "1"})
	gh := cmdtest.ReadGitHubOutput(t, outputs)
	if gh["new_failures"] != env["TESTCTL_NEW_FAILURES"] || gh["known_failures"] != env["TESTCTL_KNOWN_FAILURES"] {
		t.Errorf("GitHub outputs new_failures %q, known_failures %q; the dotenv report %v", gh["new_failures"], gh["known_failures"], env)
	}

	e.Run("run", "start", "--plan", sandbox.PlanFailing, "--wait", "--evidence", "0", "--dotenv", dotenv).Expect(t, 1)
	env = cmdtest.ReadDotenv(t, dotenv)
	for _, k := range []string{"TESTCTL_NEW_FAILURES", "TESTCTL_KNOWN_FAILURES"} {
		if v, ok := env[k]; ok {
			t.Errorf("without a baseline the dotenv report has %s=%s", k, v)
		}
	}
}
