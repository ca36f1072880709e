package cistep_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/cmd/cistep"
	"github.com/testctl/testctl/internal/cmdtest"
)

// The input ctrf gives the wait --ctrf; the report's path is the step's
// output ctrf. Without wait it is left out, as junit and html are.
func TestCTRFInputGivesTheFlagAndTheOutput(t *testing.T) {
	env := map[string]string{cistep.InputEnv("plan"): "pln-a_1", cistep.InputEnv("codehost"): "false", cistep.InputEnv("ctrf"): " out/ctrf.json "}
	got, err := cistep.StartArgs(func(k string) string { return env[k] }, "")
	if err != nil || strings.Join(got, " ") != "run start --plan pln-a_1 --wait --ctrf out/ctrf.json" {
		t.Errorf("args %q, %v", got, err)
	}
	env[cistep.InputEnv("wait")] = "false"
	got, err = cistep.StartArgs(func(k string) string { return env[k] }, "")
	if err != nil || strings.Contains(strings.Join(got, " "), "--ctrf") {
		t.Errorf("without wait: args %q, %v", got, err)
	}

	e := cmdtest.New(t)
	out := e.GitHubActions()
	path := filepath.Join(e.Dir, "ctrf.json")
	inputs(e, map[string]string{"plan": "pln-failing_sandbox", "codehost": "false", "ctrf": path, "interval": "1s"})
	e.Run("ci-step").Expect(t, 1)
	cmdtest.WantValues(t, "output", cmdtest.ReadGitHubOutput(t, out), map[string]string{"ctrf": path, "exit-code": "1"})
}
