package cistep_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/cmd/cistep"
	"github.com/testctl/testctl/internal/cmdtest"
)

// inputs sets the step's inputs as the Action and the component do.
func inputs(e *cmdtest.Env, in map[string]string) {
	for name, v := range in {
		e.Setenv(cistep.InputEnv(name), v)
	}
}

// Each input is checked before anything is sent: a mistake is exit 2 that
// names the input, and the step's outputs still say why (exit-code and
// verdict under GitHub Actions, the dotenv report for GitLab).
func TestABadInputIsUsageWithItsOutputs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		inputs map[string]string
		want   string
	}{
		{"boolean", map[string]string{"fail-on-flaky": "yes"}, `input fail-on-flaky must be true or false, not "yes"`},
		{"codehost", map[string]string{"codehost": "True"}, `input codehost must be true or false`},
		{"wait", map[string]string{"wait": "1"}, `input wait must be true or false`},
		{"comment", map[string]string{"comment": "no"}, `input comment must be true or false`},
		{"comment without wait", map[string]string{"comment": "true", "wait": "false"}, `input comment needs wait true`},
		{"timeout", map[string]string{"timeout": "30"}, `input timeout is "30", not a duration like 30m`},
		{"negative interval", map[string]string{"interval": "-5s"}, `input interval is "-5s"`},
		{"retry-failed", map[string]string{"retry-failed": "two"}, `input retry-failed is "two", not a number of reruns`},
		{"unbalanced args", map[string]string{"args": `--commit-message "it's`}, `input args: the double quote at character 18 is never closed`},
		{"key in args", map[string]string{"args": "--branch x --api-key=" + "sandbox-project-key"}, `input args: pass the key in the api-key input`},
		{"fail-on", map[string]string{"fail-on": "all"}, `input fail-on is "all": new`},
		{"ci-retry", map[string]string{"ci-retry": "none"}, `input ci-retry is "none": failed (a retried job takes up its earlier attempt's runs) or all`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := cmdtest.New(t)
			out := e.GitHubActions()
			inputs(e, map[string]string{"plan": "pln-passing_sandbox"})
			inputs(e, tc.inputs)
			dotenv := filepath.Join(e.Dir, "testctl.env")
			r := e.Run("ci-step", "--dotenv", dotenv).Expect(t, 2)
			cmdtest.Contains(t, "stderr", r.Stderr, tc.want, "::error title=testctl%3A the step started nothing::")
			if strings.Contains(r.Output(), "sandbox-project-key") {
				t.Error("the key was printed")
			}
			if n := e.Requests("POST /v1/run"); n != 0 {
				t.Errorf("%d runs started on a bad input", n)
			}
			cmdtest.WantValues(t, "output", cmdtest.ReadGitHubOutput(t, out), map[string]string{"exit-code": "2", "verdict": "usage"})
			cmdtest.WantValues(t, "dotenv", cmdtest.ReadDotenv(t, dotenv), map[string]string{"TESTCTL_EXIT_CODE": "2", "TESTCTL_VERDICT": "usage", "TESTCTL_RUN_COUNT": "0"})
		})
	}
}

// args is split as a shell splits words, quotes and backslashes honoured,
// and nothing in it is expanded or run; the command line run is printed,
// quoted so that a user can paste it.
func TestArgsAreSplitAsAShellWouldAndNothingRuns(t *testing.T) {
	e := cmdtest.New(t)
	inputs(e, map[string]string{
		"plan": "pln-passing_sandbox", "codehost": "false", "wait": "false",
		"args": `--dry-run --commit-message "two words $(touch pwned); rm -rf ~ | x" --branch 'feature/x' --actor a\ b`,
	})
	r := e.Run("ci-step").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, `"commitMessage": "two words $(touch pwned); rm -rf ~ | x"`,
		`"branch": "feature/x"`, `"actor": "a b"`)
	cmdtest.Contains(t, "stderr", r.Stderr,
		`testctl run start --plan pln-passing_sandbox --dry-run --commit-message 'two words $(touch pwned); rm -rf ~ | x' --branch feature/x --actor 'a b'`)
	if _, err := os.Stat("pwned"); err == nil {
		t.Error("a command substitution in args was run")
	}
}

// A whitespace-only args (a YAML block left empty) is no argument at all;
// bash gave it as one empty argument, which run start refused.
func TestWhitespaceOnlyArgsIsNoArgument(t *testing.T) {
	e := cmdtest.New(t)
	out := e.GitHubActions()
	inputs(e, map[string]string{"plan": "pln-passing_sandbox", "wait": "false", "codehost": "false", "args": " \n\t \n"})
	e.Run("ci-step").Expect(t, 0)
	cmdtest.WantValues(t, "output", cmdtest.ReadGitHubOutput(t, out), map[string]string{"exit-code": "0", "verdict": "started"})
	if n := e.Requests("POST /v1/run"); n != 1 {
		t.Errorf("%d runs started, want 1", n)
	}
}

// plan and test-cases take ids separated by new lines or blanks; app one
// spec a line, which keeps its blanks; each boolean gives its flag.
func TestInputsBecomeTheRunStartCommandLine(t *testing.T) {
	env := map[string]string{
		cistep.InputEnv("plan"):            "pln-a_1\n  pln-b_2  \n\n",
		cistep.InputEnv("app"):             "app_x,name=Shop web\n\n  app_y,env=env_z  \n",
		cistep.InputEnv("codehost"):        "false",
		cistep.InputEnv("fail-on-skipped"): "true",
		cistep.InputEnv("timeout"):         "30m",
		cistep.InputEnv("interval"):        "20s",
		cistep.InputEnv("retry-failed"):    "2",
		cistep.InputEnv("junit"):           "out/junit.xml",
		cistep.InputEnv("html"):            "",
		cistep.InputEnv("base-url"):        "https://api.example.com",
		cistep.InputEnv("project"):         "proj_1",
		cistep.InputEnv("comment"):         "true",
		cistep.InputEnv("baseline"):        " main ",
		cistep.InputEnv("fail-on"):         "new",
		cistep.InputEnv("quarantine"):      ".ci/quarantine.yaml",
		cistep.InputEnv("ci-retry"):        "all",
	}
	got, err := cistep.StartArgs(func(k string) string { return env[k] }, "testctl.env")
	if err != nil {
		t.Fatal(err)
	}
	want := "run start --plan pln-a_1 --plan pln-b_2 --app app_x,name=Shop web --app app_y,env=env_z --fail-on-skipped --comment --ci-retry all " +
		"--wait --timeout 30m --interval 20s --retry-failed 2 --junit out/junit.xml --baseline main --quarantine .ci/quarantine.yaml --fail-on new --dotenv testctl.env --base-url https://api.example.com --project proj_1"
	if strings.Join(got, " ") != want {
		t.Errorf("args\n%q\nwant\n%s", got, want)
	}
	if strings.Count(strings.Join(got, "\x00"), "Shop web") != 1 {
		t.Errorf("the app spec was split: %q", got)
	}

	// The component's baseline default outside a merge request pipeline,
	// left unexpanded, is no baseline.
	for _, ref := range []string{"$CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "${CI_MERGE_REQUEST_TARGET_BRANCH_NAME}"} {
		env = map[string]string{cistep.InputEnv("plan"): "pln-a_1", cistep.InputEnv("baseline"): ref}
		got, err = cistep.StartArgs(func(k string) string { return env[k] }, "")
		if err != nil || strings.Contains(strings.Join(got, " "), "--baseline") {
			t.Errorf("baseline %s: args %q, %v", ref, got, err)
		}
	}

	// Without wait, the wait's inputs (junit and html have defaults) are
	// left out, and codehost is on by default.
	env = map[string]string{cistep.InputEnv("test-cases"): "tc_1 tc_2", cistep.InputEnv("wait"): "false",
		cistep.InputEnv("junit"): "testctl-junit.xml", cistep.InputEnv("fail-on-flaky"): "true"}
	got, err = cistep.StartArgs(func(k string) string { return env[k] }, "")
	if err != nil || strings.Join(got, " ") != "run start --test-case tc_1 --test-case tc_2 --codehost" {
		t.Errorf("args %q, %v", got, err)
	}
}

// The outputs a later step reads carry the final exit code: the verdict's
// on a pass or a failure, and the code a signal or a failed report raised
// it to, not the runs' verdict.
func TestOutputsCarryTheFinalCode(t *testing.T) {
	for _, tc := range []struct {
		name     string
		plan     string
		setup    func(e *cmdtest.Env)
		run      func(e *cmdtest.Env, args ...string) cmdtest.Result
		code     int
		verdict  string
		withRuns bool
	}{
		{name: "pass", plan: "pln-passing_sandbox", code: 0, verdict: "passed", withRuns: true},
		{name: "fail", plan: "pln-failing_sandbox", code: 1, verdict: "failed", withRuns: true},
		{name: "error", plan: "pln-erroring_sandbox", code: 3, verdict: "error", withRuns: true},
		{name: "not found", plan: "pln-nope_sandbox", code: 5, verdict: "not-found"},
		{name: "signal", plan: "pln-slow_sandbox", code: 143, verdict: "terminated", withRuns: true,
			run: func(e *cmdtest.Env, args ...string) cmdtest.Result {
				ctx := cmdtest.TerminateAt(e.Clock, e.Clock.Now().Add(20*time.Second))
				return e.RunWith(cmdtest.RunOptions{Ctx: ctx}, args...)
			}},
		{name: "failed report", plan: "pln-passing_sandbox", code: 8, verdict: "local", withRuns: true,
			// A step summary that cannot be written: the GitHub report fails.
			setup: func(e *cmdtest.Env) { e.Setenv("GITHUB_STEP_SUMMARY", e.Dir) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := cmdtest.New(t)
			out := e.GitHubActions()
			if tc.setup != nil {
				tc.setup(e)
			}
			junit := filepath.Join(e.Dir, "junit.xml")
			inputs(e, map[string]string{"plan": tc.plan, "interval": "1s", "junit": junit, "codehost": "false"})
			dotenv := filepath.Join(e.Dir, "testctl.env")
			run := tc.run
			if run == nil {
				run = func(e *cmdtest.Env, args ...string) cmdtest.Result { return e.Run(args...) }
			}
			run(e, "ci-step", "--dotenv", dotenv).Expect(t, tc.code)
			code := map[int]string{0: "0", 1: "1", 3: "3", 5: "5", 8: "8", 143: "143"}[tc.code]
			gh := cmdtest.ReadGitHubOutput(t, out)
			cmdtest.WantValues(t, "output", gh, map[string]string{"exit-code": code, "verdict": tc.verdict})
			env := cmdtest.ReadDotenv(t, dotenv)
			cmdtest.WantValues(t, "dotenv", env, map[string]string{"TESTCTL_EXIT_CODE": code, "TESTCTL_VERDICT": tc.verdict})
			if !tc.withRuns {
				if env["TESTCTL_RUN_SHORT_ID"] != "" || env["TESTCTL_RUN_COUNT"] != "0" {
					t.Errorf("dotenv names runs that never started: %v", env)
				}
				return
			}
			id := env["TESTCTL_RUN_SHORT_ID"]
			if id == "" || gh["run_short_id"] != id || !strings.HasSuffix(env["TESTCTL_RUN_URL"], "/"+id) || env["TESTCTL_RUN_COUNT"] != "1" {
				t.Errorf("dotenv %v, outputs %v: want the run's short id and URL in both", env, gh)
			}
			if gh["junit"] != junit {
				t.Errorf("output junit = %q, want %q: the report was written", gh["junit"], junit)
			}
			if _, ok := gh["html"]; ok {
				t.Errorf("output html = %q for a report never asked for", gh["html"])
			}
		})
	}
}

// The step's global flags reach the command it runs (here -o json and the
// key); the command line printed never shows the key.
func TestGlobalFlagsReachTheCommandRunAndTheKeyIsNeverPrinted(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	inputs(e, map[string]string{"plan": "pln-passing_sandbox", "wait": "false", "codehost": "false"})
	r := e.Run("--api-key", "sandbox-project-key", "-o", "json", "ci-step").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, `"shortId"`)
	cmdtest.Contains(t, "stderr", r.Stderr, "testctl --output=json run start --plan pln-passing_sandbox")
	if strings.Contains(r.Output(), "sandbox-project-key") {
		t.Errorf("the key was printed:\n%s", r.Output())
	}
}

// A mistake that only run start finds (a flag in args it does not have)
// points to run start's help, and is still a usage error in the outputs.
func TestAMistakeInArgsPointsToRunStart(t *testing.T) {
	e := cmdtest.New(t)
	out := e.GitHubActions()
	inputs(e, map[string]string{"plan": "pln-passing_sandbox", "args": "--bogus"})
	r := e.Run("ci-step").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "unknown flag: --bogus", "Run 'testctl run start --help' for usage.")
	cmdtest.WantValues(t, "output", cmdtest.ReadGitHubOutput(t, out), map[string]string{"exit-code": "2", "verdict": "usage"})
	if n := e.Requests("POST /v1/run"); n != 0 {
		t.Errorf("%d runs started", n)
	}
}

// The step is no command a user looks for: help does not list it.
func TestTheStepIsHiddenFromHelp(t *testing.T) {
	e := cmdtest.New(t)
	if r := e.Run("--help").Expect(t, 0); strings.Contains(r.Output(), "ci-step") {
		t.Errorf("help lists ci-step:\n%s", r.Output())
	}
}

// comment true gives run start --comment; without a pull request to write
// to, that is a notice, and the step's code is the verdict's.
func TestCommentInputGivesTheFlag(t *testing.T) {
	e := cmdtest.New(t)
	out := e.GitHubActions()
	inputs(e, map[string]string{"plan": "pln-passing_sandbox", "codehost": "false", "comment": "true", "interval": "1s"})
	r := e.Run("ci-step").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "testctl run start --plan pln-passing_sandbox --comment --wait")
	cmdtest.WantValues(t, "output", cmdtest.ReadGitHubOutput(t, out), map[string]string{"exit-code": "0", "verdict": "passed"})
}

// pass-with-no-tests gives its flag to the wait; a run that ran no test
// case fails the step without it, in the outputs too, and passes with it.
func TestPassWithNoTestsInput(t *testing.T) {
	env := map[string]string{cistep.InputEnv("plan"): "pln-a_1", cistep.InputEnv("pass-with-no-tests"): "true", cistep.InputEnv("codehost"): "false"}
	got, err := cistep.StartArgs(func(k string) string { return env[k] }, "")
	if err != nil || strings.Join(got, " ") != "run start --plan pln-a_1 --pass-with-no-tests --wait" {
		t.Errorf("args %q, %v", got, err)
	}
	env[cistep.InputEnv("pass-with-no-tests")] = "maybe"
	if _, err := cistep.StartArgs(func(k string) string { return env[k] }, ""); err == nil {
		t.Error("pass-with-no-tests maybe: no error")
	}

	for _, pass := range []string{"false", "true"} {
		e := cmdtest.New(t)
		out := e.GitHubActions()
		junit := filepath.Join(e.Dir, "junit.xml")
		inputs(e, map[string]string{"plan": "pln-empty_sandbox", "interval": "1s", "junit": junit, "codehost": "false", "pass-with-no-tests": pass})
		code, verdict := 1, "failed"
		if pass == "true" {
			code, verdict = 0, "passed"
		}
		r := e.Run("ci-step").Expect(t, code)
		cmdtest.WantValues(t, "output", cmdtest.ReadGitHubOutput(t, out), map[string]string{"exit-code": strconv.Itoa(code), "verdict": verdict})
		if pass == "false" {
			cmdtest.Contains(t, "stderr", r.Stderr, "ran no test case")
		}
	}
}
