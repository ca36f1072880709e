package wait_test

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// SIGTERM, which CI runners send on cancel, ends the wait as Ctrl-C does
// (resume hint, partial JUnit, summary, outputs) with its own code, 143.
func TestSIGTERMExits143WithEverything130Does(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanSlow)
	out := e.GitHubActions()
	junit := e.Dir + "/partial.xml"
	ctx := cmdtest.TerminateAt(e.Clock, e.Clock.Now().Add(20*time.Second))
	r := e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "wait", id, "--junit", junit).Expect(t, 143)
	cmdtest.Contains(t, "stderr", r.Stderr, "Run "+id+": still RUNNING when the wait was terminated",
		"terminated: run "+id+" still RUNNING. The run goes on; resume waiting with:\n  testctl run wait "+id)
	if strings.Contains(r.Stderr, "interrupted") {
		t.Errorf("SIGTERM reported as an interruption:\n%s", r.Stderr)
	}
	doc := cmdtest.ReadJUnitFile(t, junit)
	if cases := doc.Suites[0].Cases; doc.Errors != 1 || cases[len(cases)-1].Error.Type != "TERMINATED" {
		t.Errorf("partial report: %+v", doc)
	}
	if got := cmdtest.ReadGitHubOutput(t, out); got["run_status"] != "RUNNING" || !strings.Contains(got["runs_json"], `"exitCode":143`) {
		t.Errorf("outputs %q", got)
	}
}

// The resume hint asks the same service: the flags that chose it, never
// the key.
func TestResumeHintCarriesTheServiceFlags(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanSlow)
	config := e.WriteFile("prod.yaml", "profiles:\n  prod:\n    base_url: "+e.Getenv("TESTCTL_BASE_URL")+"\n")
	e.Setenv("TESTCTL_BASE_URL", "")
	r := e.Run("--config-file", config, "--profile", "prod", "--api-key", sandbox.ProjectKey,
		"run", "wait", id, "--timeout", "1m").Expect(t, 7)
	cmdtest.Contains(t, "stderr", r.Stderr, "\n  testctl --profile prod --config-file "+config+" run wait "+id+"\n")
	if strings.Contains(r.Stderr, sandbox.ProjectKey) {
		t.Errorf("the key is in the hint:\n%s", r.Stderr)
	}
}

// Under --sandbox the run ends with the process: no command that would
// exit 5, but how to keep a sandbox.
func TestResumeHintUnderSandbox(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("--sandbox", "run", "start", "--plan", sandbox.PlanSlow, "--wait", "--timeout", "1m").Expect(t, 7)
	cmdtest.Contains(t, "stderr", r.Stderr, "The run ended with the embedded sandbox", "testctl sandbox")
	if strings.Contains(r.Stderr, "testctl run wait") {
		t.Errorf("a resume command for a run that ended with the sandbox:\n%s", r.Stderr)
	}
}
