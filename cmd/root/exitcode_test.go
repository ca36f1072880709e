package root_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/pkg/cmdtest"
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
