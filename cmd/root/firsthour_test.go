package root_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/exitcode"
)

// `testctl help exit-codes` lists every code the program exits with, each
// with the whole of its meaning (8 is any local file or the sandbox's port,
// not only the config file).
func TestHelpExitCodesListsEveryCode(t *testing.T) {
	r := cmdtest.New(t).Run("help", "exit-codes").Expect(t, 0)
	text := strings.Join(strings.Fields(r.Stdout), " ")
	for _, c := range exitcode.Table {
		meaning := strings.ReplaceAll(c.Meaning, "`", "")
		if !strings.Contains(text, fmt.Sprintf("%d %s", c.Code, meaning)) {
			t.Errorf("help exit-codes lacks %d %q:\n%s", c.Code, meaning, r.Stdout)
		}
	}
	cmdtest.Contains(t, "help exit-codes", r.Stdout, "143", "the sandbox could not listen")
}

// A mistyped verb followed by flags is named as the unknown command with
// the nearest verb, as it is without flags, not as an unknown flag.
func TestUnknownVerbWithFlagsNamesTheVerb(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{{"run", "strt", "--plan", "x"}, {"run", "strt", "-p", "proj_x", "--plan=x"}} {
		r := e.Run(args...).Expect(t, 2)
		cmdtest.Contains(t, strings.Join(args, " "), r.Stderr, `unknown command "strt" for "testctl run"`, "Did you mean this?", "\tstart\n")
		if strings.Contains(r.Stderr, "unknown flag") {
			t.Errorf("%v: stderr names the flag:\n%s", args, r.Stderr)
		}
	}
	r := e.Run("testcase", "frobnicate", "--name", "x").Expect(t, 2)
	cmdtest.Contains(t, "testcase frobnicate", r.Stderr, `unknown command "frobnicate" for "testctl testcase"; its commands: `)
	// A verb's own unknown flag is still that.
	r = e.Run("run", "start", "--nope").Expect(t, 2)
	cmdtest.Contains(t, "run start --nope", r.Stderr, "unknown flag: --nope")
	r = e.Run("run", "--nope").Expect(t, 2)
	cmdtest.Contains(t, "run --nope", r.Stderr, "unknown flag: --nope")
}

// --sandbox runs against an emulator of its own: a --base-url beside it
// would be ignored in silence, so the pair is refused before anything runs.
func TestSandboxRefusesABaseURL(t *testing.T) {
	e := cmdtest.New(t)
	for _, flag := range []string{"--base-url", "--legacy-base-url"} {
		r := e.Run("--sandbox", flag, "http://127.0.0.1:9999", "run", "list").Expect(t, 2)
		cmdtest.Contains(t, flag, r.Stderr, "--sandbox and "+flag+" cannot be used together", "http://127.0.0.1:9999", "testctl sandbox", "sandbox-project-key")
		if r.Stdout != "" {
			t.Errorf("%s: stdout %q, want nothing", flag, r.Stdout)
		}
	}
	// The environment's base URL is what --sandbox replaces, as documented.
	e.Setenv("TESTCTL_BASE_URL", "http://127.0.0.1:9999")
	e.Run("--sandbox", "run", "list", "-L", "1").Expect(t, 0)
}

// -o takes table, json or yaml on every command, and says so: a command
// that prints no data does not take -o xml in silence.
func TestOutputFormatListsTheValidValues(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{{"version", "-o", "xml"}, {"--sandbox", "run", "list", "-o", "xml"}, {"config", "get", "project", "-o", "xml"}} {
		r := e.Run(args...).Expect(t, 2)
		cmdtest.Contains(t, strings.Join(args, " "), r.Stderr, `invalid value "xml" for --output: valid values are table, json, yaml`)
		if strings.Count(r.Stderr, "--output") != 1 {
			t.Errorf("%v: --output named more than once:\n%s", args, r.Stderr)
		}
	}
}

// --plan completes the sandbox's plans under --sandbox, and otherwise the
// plans of the runs this machine started on the service, then those of the
// project's recent runs; run ids complete the runs started here first.
// Never file names.
func TestCompletionOfPlansAndStartedRuns(t *testing.T) {
	e := cmdtest.New(t)
	for _, cmd := range [][]string{{"run", "start"}, {"run", "list"}} {
		args := append(append([]string{"__complete", "--sandbox"}, cmd...), "--plan", "")
		r := e.Run(args...).Expect(t, 0)
		cmdtest.Contains(t, strings.Join(args, " "), r.Stdout, "pln-passing_sandbox\tSmoke (passing)\n", "pln-flaky_sandbox\t", ":4\n")
	}
	// Nothing started here yet: the plans of the project's runs, and no files.
	r := e.Run("__complete", "run", "start", "--plan", "").Expect(t, 0)
	cmdtest.Contains(t, "--plan before any start", r.Stdout, "pln-failing_sandbox\tlast run FAILED", ":4\n")
	id := strings.TrimSpace(e.Run("run", "start", "--plan", "pln-failing_sandbox", "-q").Expect(t, 0).Stdout)
	r = e.Run("__complete", "run", "start", "--plan", "").Expect(t, 0)
	if !strings.HasPrefix(r.Stdout, "pln-failing_sandbox\tCheckout regression (failing)\n") || strings.Count(r.Stdout, "pln-failing_sandbox") != 1 {
		t.Errorf("--plan after a start does not offer the plan started here first, once:\n%s", r.Stdout)
	}
	r = e.Run("__complete", "run", "wait", "").Expect(t, 0)
	if !strings.HasPrefix(r.Stdout, id+"\tpln-failing_sandbox (Checkout regression (failing)) started here\n") {
		t.Errorf("run wait completion does not offer %s first:\n%s", id, r.Stdout)
	}
	r = e.Run("__complete", "run", "wait", id, "").Expect(t, 0)
	if strings.Contains(r.Stdout, id+"\t") {
		t.Errorf("run wait %s offers %s again:\n%s", id, id, r.Stdout)
	}
	// Runs started on another service are not offered.
	e.Setenv("TESTCTL_BASE_URL", "http://127.0.0.1:1")
	r = e.Run("__complete", "run", "start", "--plan", "").Expect(t, 0)
	if strings.Contains(r.Stdout, "pln-failing_sandbox") {
		t.Errorf("plans of another service offered:\n%s", r.Stdout)
	}
}
