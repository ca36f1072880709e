package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/keyring"
	"github.com/testctl/testctl/pkg/sandbox"
)

// startElsewhere starts a run of plan as another machine would: through
// the API, so this machine's record of started runs never sees it.
func startElsewhere(t *testing.T, e *cmdtest.Env, plan string) string {
	t.Helper()
	c := &api.Client{BaseURL: e.Getenv("TESTCTL_BASE_URL"), APIKey: sandbox.ProjectKey, Clock: e.Clock}
	started, err := c.StartRun(context.Background(), api.StartRunRequest{TestPlanShortID: plan})
	if err != nil {
		t.Fatal(err)
	}
	return started.Run.ShortID
}

// --plan <Tab> offers the project's plans, from the run list: a plan only
// another machine ever ran is offered too.
func TestCompletionOffersTheProjectsPlans(t *testing.T) {
	e := cmdtest.New(t, cmdtest.WithSandbox(sandbox.Options{History: -1})) // no past runs
	r := e.Run("__complete", "run", "start", "--plan", "").Expect(t, 0)
	if r.Stdout != ":4\n" {
		t.Errorf("--plan of a project without runs:\n%s", r.Stdout)
	}
	startElsewhere(t, e, "pln-flaky_sandbox")
	for _, cmd := range [][]string{{"run", "start"}, {"run", "list"}} {
		r = e.Run(append(append([]string{"__complete"}, cmd...), "--plan", "")...).Expect(t, 0)
		if r.Stdout != "pln-flaky_sandbox\tlast run INITIATED\n:4\n" {
			t.Errorf("%v --plan: want the plan another machine ran:\n%s", cmd, r.Stdout)
		}
	}
}

// logs <Tab> offers runs, each with its dash and no space after it;
// logs RUN-<Tab> offers that run's test cases, by name and outcome.
func TestCompletionOffersARunsTestCases(t *testing.T) {
	e := cmdtest.New(t)
	id := startElsewhere(t, e, "pln-failing_sandbox")
	r := e.Run("__complete", "logs", "").Expect(t, 0)
	if !strings.HasPrefix(r.Stdout, id+"-\tpln-failing_sandbox INITIATED\n") || !strings.HasSuffix(r.Stdout, "\n:6\n") {
		t.Errorf("logs <Tab>: want the runs with their dash, no space and no files (:6):\n%s", r.Stdout)
	}
	e.Clock.Advance(2 * time.Minute)
	r = e.Run("__complete", "logs", id+"-").Expect(t, 0)
	cmdtest.Contains(t, "logs "+id+"-<Tab>", r.Stdout, id+"-1\tLog in with email and password PASSED\n",
		id+"-3\tPay with a declined card FAILED\n", ":4\n")
	if n := strings.Count(r.Stdout, "\t"); n != 7 {
		t.Errorf("logs %s-<Tab>: %d candidates, want the run's 7 test cases:\n%s", id, n, r.Stdout)
	}
	r = e.Run("__complete", "logs", id+"-1", "").Expect(t, 0)
	if r.Stdout != ":4\n" {
		t.Errorf("a second argument is offered:\n%s", r.Stdout)
	}
}

// Without a key from the flag, the environment or the config file,
// completion offers nothing and asks nobody: not the service, and not the
// OS keyring, whose dialog would open over the user's prompt.
func TestCompletionWithoutAKeyOffersNothingAndNeverAsksTheKeyring(t *testing.T) {
	e := cmdtest.New(t)
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "-q").Expect(t, 0) // a local record
	fake := e.Keyring.(*keyring.Fake)
	if err := fake.Set(keyring.Service(e.Getenv("TESTCTL_BASE_URL")), "default", sandbox.ProjectKey); err != nil {
		t.Fatal(err)
	}
	e.Setenv("TESTCTL_API_KEY", "")
	calls, requests := fake.Calls, e.Sandbox.Server.Stats().Requests
	for _, args := range [][]string{{"run", "start", "--plan", ""}, {"run", "list", "--plan", ""}, {"run", "wait", ""},
		{"run", "get", ""}, {"logs", ""}, {"logs", "r1-"}} {
		r := e.Run(append([]string{"__complete"}, args...)...).Expect(t, 0)
		// cobra's own line, which the shell scripts drop, and nothing else.
		if r.Stdout != ":4\n" || r.Stderr != "Completion ended with directive: ShellCompDirectiveNoFileComp\n" {
			t.Errorf("%v without a key: stdout %q, stderr %q; want nothing offered", args, r.Stdout, r.Stderr)
		}
	}
	if fake.Calls != calls {
		t.Errorf("completion asked the keyring %d times", fake.Calls-calls)
	}
	if got := e.Sandbox.Server.Stats().Requests; sum(got) != sum(requests) {
		t.Errorf("completion without a key sent %d requests", sum(got)-sum(requests))
	}
}

func sum(m map[string]int) (n int) {
	for _, v := range m {
		n += v
	}
	return n
}
