package run_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

func TestEveryRunCommandHasHelpWithExamples(t *testing.T) {
	e := cmdtest.New(t)
	for _, verb := range []string{"start", "rerun", "get", "list", "wait"} {
		r := e.Run("run", verb, "--help").Expect(t, 0)
		cmdtest.Contains(t, verb+" --help", r.Stdout, "Examples:", "testctl run "+verb)
	}
	r := e.Run("run", "--help").Expect(t, 0)
	cmdtest.Contains(t, "run --help", r.Stdout, "start", "rerun", "get", "list", "wait")
}

func TestEnumFlagsComplete(t *testing.T) {
	e := cmdtest.New(t)
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "list", "--status", ""}, []string{"INITIATED", "RUNNING", "COMPLETED", "ERROR", "CANCELLED"}},
		{[]string{"run", "list", "--result", ""}, []string{"PASSED", "FAILED", "SKIPPED"}},
		{[]string{"run", "list", "--trigger", ""}, []string{"API", "CODEHOST"}},
		{[]string{"run", "start", "--trigger", ""}, []string{"API", "CODEHOST"}},
		{[]string{"run", "get", "r1", "--test-cases", ""}, []string{"all", "failed"}},
	} {
		r := e.Run(append([]string{"__complete"}, tt.args...)...).Expect(t, 0)
		for _, w := range tt.want {
			if !strings.Contains(r.Stdout, w+"\n") {
				t.Errorf("%q: completions lack %s:\n%s", tt.args, w, r.Stdout)
			}
		}
	}
	// Run ids complete from the service's newest runs.
	r := e.Run("__complete", "run", "get", "").Expect(t, 0)
	if strings.Count(r.Stdout, "\n") < 20 {
		t.Errorf("run id completions:\n%s", r.Stdout)
	}
}
