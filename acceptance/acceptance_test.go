// Package acceptance runs txtar scripts against the real command tree: each
// script reads like a shell session a user would type, with the exit codes,
// stdout and stderr they would see.
package acceptance_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/clock"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"testctl": func() { os.Exit(runTestctl()) },
	})
}

// runTestctl is testctl on a fake clock: a --sandbox run's simulated time
// passes exactly as fast as the command waits, so `--wait` takes no real time.
func runTestctl() int {
	fake := clock.NewFake(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC))
	f, cleanup := factory.New("acceptance", factory.Options{Clock: fake})
	defer cleanup()
	return root.Run(context.Background(), f, os.Args[1:])
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("TESTCTL_CONFIG", filepath.Join(env.WorkDir, ".config", "testctl", "config.yaml"))
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode": exitCode,
			"ghoutput": gitHubOutput,
		},
	})
}

// exitCode runs a command and checks its exact exit code, which `! exec`
// cannot: CI users gate on 1, 3 and 7 meaning different things.
//
//	exitcode N command [args...]
func exitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit code %d, want %d", got, want)
	}
}

// gitHubOutput reads a $GITHUB_OUTPUT file the way the runner does (a
// heredoc value is one output, a later value replaces an earlier one) and
// checks that the output NAME is set, to a value matching REGEXP when one
// is given. With !, that it is not (or not to a value matching REGEXP).
//
//	ghoutput FILE NAME [REGEXP]
func gitHubOutput(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: ghoutput FILE NAME [REGEXP]")
	}
	outputs, err := cmdtest.ParseGitHubOutput([]byte(ts.ReadFile(args[0])))
	ts.Check(err)
	val, set := outputs[args[1]]
	if !set {
		if !neg {
			ts.Fatalf("output %s is not set in %s", args[1], args[0])
		}
		return
	}
	matches := true
	if len(args) == 3 {
		re, err := regexp.Compile("(?m)" + args[2])
		ts.Check(err)
		matches = re.MatchString(val)
	}
	switch {
	case matches && neg:
		ts.Fatalf("output %s is %q", args[1], val)
	case !matches && !neg:
		ts.Fatalf("output %s is %q, which does not match %q", args[1], val, args[2])
	}
}
