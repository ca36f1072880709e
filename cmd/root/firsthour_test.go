package root_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// `testctl help exit-codes` lists every code the program exits with, each
// with the whole of its meaning (8 is any local file or the sandbox's port,
// not only the config file).
func TestHelpExitCodesListsEveryCode(t *testing.T) {
	r := cmdtest.New(t).Run("help", "exit-codes").Expect(t, 0)
	text := strings.Join(strings.Fields(r.Stdout), " ")
	for _, c := range cmdutil.ExitCodes {
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
