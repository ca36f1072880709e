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
