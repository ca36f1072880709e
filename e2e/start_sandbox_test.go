package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
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
	// After a wait the note is said once, without asking for the --wait it
	// had; a service that keeps its runs needs no such note.
	r := e.Run("--sandbox", "run", "start", "--plan", "pln-passing_sandbox", "--wait").Expect(t, 0)
	if strings.Count(r.Stderr, "stopped with it.") != 1 || strings.Contains(r.Stderr, "add --wait") || strings.Contains(r.Stderr, "printed above") {
		t.Errorf("after a passing wait, the note is not said once, as it is:\n%s", r.Stderr)
	}
	r = e.Run("run", "start", "--plan", "pln-passing_sandbox").Expect(t, 0)
	if strings.Contains(r.Stderr, "stopped with it") {
		t.Errorf("a note where the runs are kept:\n%s", r.Stderr)
	}
	r = e.Run("--sandbox", "run", "rerun", "hulq0y").Expect(t, 0)
	cmdtest.Contains(t, "rerun", r.Stderr, "stopped with it", "testctl run rerun hulq0y")
}

// The note's command of a rerun repeats its flags.
func TestSandboxNoteRepeatsTheFlagsOfARerun(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("--sandbox", "run", "rerun", "hulq0y", "--failed-only", "--wait", "--fail-on-skipped").Expect(t, 1)
	cmdtest.Contains(t, "rerun", r.Stderr, "  testctl run rerun hulq0y --fail-on-skipped --failed-only --wait\n")
}

// The note's command makes the same example in a served sandbox: the
// flags given come back, but those its exports replace and no secret.
func TestSandboxNoteRepeatsTheFlags(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("--sandbox", "run", "start", "--plan", "pln-baseline_sandbox", "--branch", "feature", "--baseline", "main", "--wait").Expect(t, 1)
	cmdtest.Contains(t, "note", r.Stderr, "export TESTCTL_BASE_URL=http://127.0.0.1:8787 TESTCTL_API_KEY=sandbox-project-key\n"+
		"  testctl run start --plan pln-baseline_sandbox --baseline main --branch feature --wait\n")

	r = e.Run("--sandbox", "--api-key", "sandbox-org-key", "--project", "proj-demo_sandbox", "run", "start",
		"--plan", "pln-passing_sandbox", "--app", "app_sandbox-web,url=https://shop.invalid/?token=s3cret&v=2", "--no-notify", "-q").Expect(t, 0)
	cmdtest.Contains(t, "note", r.Stderr,
		"  testctl run start --plan pln-passing_sandbox --app 'app_sandbox-web,url=https://shop.invalid/?token=***&v=***' --no-notify --quiet\n")
	for _, leak := range []string{"s3cret", "sandbox-org-key", "--project", "--sandbox run"} {
		if strings.Contains(r.Stderr, leak) {
			t.Errorf("the note repeats %q:\n%s", leak, r.Stderr)
		}
	}

}
