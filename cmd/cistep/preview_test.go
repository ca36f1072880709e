package cistep_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/cmd/cistep"
	"github.com/testctl/testctl/internal/cmdtest"
)

// The inputs preview and wait-for-app become the flags; a bad duration is
// the input's mistake; the command line printed hides an --app URL's
// query values.
func TestPreviewAndWaitForAppInputs(t *testing.T) {
	env := map[string]string{cistep.InputEnv("plan"): "pln-a_1", cistep.InputEnv("app"): "app_web",
		cistep.InputEnv("preview"): " github:Preview ", cistep.InputEnv("wait-for-app"): "5m", cistep.InputEnv("codehost"): "false"}
	got, err := cistep.StartArgs(func(k string) string { return env[k] }, "")
	if err != nil || strings.Join(got, " ") != "run start --plan pln-a_1 --app app_web --preview github:Preview --wait-for-app 5m --wait" {
		t.Errorf("args %q, %v", got, err)
	}
	env[cistep.InputEnv("wait-for-app")] = "5"
	if _, err := cistep.StartArgs(func(k string) string { return env[k] }, ""); err == nil || !strings.Contains(err.Error(), "input wait-for-app") {
		t.Errorf("wait-for-app 5: %v", err)
	}
	line := cistep.CommandLine(nil, []string{"run", "start", "--app", "app_web,url=https://pr.example/?x-vercel-protection-bypass=s3cret-bypass"})
	if strings.Contains(line, "s3cret-bypass") || !strings.Contains(line, "x-vercel-protection-bypass=***") {
		t.Errorf("command line %s", line)
	}

	e := cmdtest.New(t)
	e.GitHubActions()
	inputs(e, map[string]string{"plan": "pln-passing_sandbox", "codehost": "false", "wait-for-app": "1m"})
	r := e.Run("ci-step").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--wait-for-app needs an application URL")
}
