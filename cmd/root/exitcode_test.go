package root_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/internal/cmdtest"
)

// The GitHub Action execs testctl and reads its exit code from
// $TESTCTL_EXIT_CODE_FILE afterwards: every way a command ends must leave
// the code there, a usage error and an interruption included.
func TestExitCodeFileGetsEveryExitCode(t *testing.T) {
	e := cmdtest.New(t)
	path := filepath.Join(e.Dir, "exit-code")
	e.Setenv(root.ExitCodeFileEnv, path)
	interrupted, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		args []string
		want int
	}{
		{"success", context.Background(), []string{"version"}, 0},
		{"usage", context.Background(), []string{"run", "wait"}, 2},
		{"not found", context.Background(), []string{"run", "get", "r0zzzz"}, 5},
		{"interrupted", interrupted, []string{"run", "list"}, 130},
	} {
		e.RunWith(cmdtest.RunOptions{Ctx: tc.ctx}, tc.args...).Expect(t, tc.want)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := strconv.Itoa(tc.want) + "\n"; string(got) != want {
			t.Errorf("%s: file holds %q, want %q", tc.name, got, want)
		}
	}
}

// An exit code that cannot be recorded fails the step (8) rather than
// leaving the action to report nothing.
func TestExitCodeFileUnwritableIsExit8(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv(root.ExitCodeFileEnv, filepath.Join(e.Dir, "missing-dir", "exit-code"))
	r := e.Run("version").Expect(t, 8)
	if r.Stderr == "" {
		t.Error("stderr says nothing about the file")
	}
}

// The verdict file gets the exit code's word, as the GitHub Action's verdict
// output shows it; a start that did not wait is "started".
func TestVerdictFileGetsTheWord(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "start", "--plan", "pln-passing_sandbox", "--wait"}, "passed"},
		{[]string{"run", "start", "--plan", "pln-failing_sandbox", "--wait"}, "failed"},
		{[]string{"run", "start", "--plan", "pln-passing_sandbox"}, "started"},
		{[]string{"run", "start", "--plan", "pln-nope_sandbox"}, "not-found"},
		{[]string{"run", "start", "--bogus"}, "usage"},
	} {
		e := cmdtest.New(t)
		path := filepath.Join(e.Dir, "verdict")
		e.Setenv(root.VerdictFileEnv, path)
		e.Run(c.args...)
		if b, err := os.ReadFile(path); err != nil || string(b) != c.want+"\n" {
			t.Errorf("%v: verdict file %q (%v), want %q", c.args, b, err, c.want)
		}
	}
}
