package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
)

// A run started under --sandbox without --wait ends with the command: on a
// terminal or not, stderr says so and how to keep runs between commands.
func TestSandboxStartWithoutWaitSaysTheRunEnded(t *testing.T) {
	e := cmdtest.New(t)
	for _, tty := range []bool{false, true} {
		for _, extra := range [][]string{nil, {"-q"}, {"-o", "json"}} {
			args := append([]string{"--sandbox", "run", "start", "--plan", "pln-passing_sandbox"}, extra...)
			r := e.RunWith(cmdtest.RunOptions{TTY: tty}, args...).Expect(t, 0)
			name := strings.Join(args, " ")
			if tty {
				name += " (terminal)"
			}
			cmdtest.Contains(t, name, r.Stderr, "this command's embedded sandbox", "stopped with it",
				"testctl sandbox", "TESTCTL_BASE_URL=http://127.0.0.1:8787", "--wait")
			if strings.Contains(r.Stdout, "Note") {
				t.Errorf("%s: the note is on stdout:\n%s", name, r.Stdout)
			}
		}
	}
	// Waiting, or a service that keeps its runs, needs no such note.
	r := e.Run("--sandbox", "run", "start", "--plan", "pln-passing_sandbox", "--wait").Expect(t, 0)
	r2 := e.Run("run", "start", "--plan", "pln-passing_sandbox").Expect(t, 0)
	for _, s := range []string{r.Stderr, r2.Stderr} {
		if strings.Contains(s, "stopped with it") {
			t.Errorf("a note where the runs are kept or waited for:\n%s", s)
		}
	}
	r = e.Run("--sandbox", "run", "rerun", "hulq0y").Expect(t, 0)
	cmdtest.Contains(t, "rerun", r.Stderr, "stopped with it", "testctl run rerun hulq0y")
}
