//go:build linux

package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/ptytest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Under a coding agent a pseudo-terminal is taken for a pipe: no colour, no
// redraws, one line per change of state; TESTCTL_AGENT=0 gives the
// terminal back.
func TestAgentModeOnATerminal(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		tty  bool
	}{
		{"CLAUDECODE", map[string]string{"CLAUDECODE": "1"}, false},
		{"AGENT", map[string]string{"AGENT": "goose"}, false},
		{"TESTCTL_AGENT=1", map[string]string{"TESTCTL_AGENT": "1"}, false},
		{"TESTCTL_AGENT=0 wins", map[string]string{"CURSOR_AGENT": "1", "TESTCTL_AGENT": "0"}, true},
		{"AGENT=false", map[string]string{"AGENT": "false"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			controller, terminal := ptytest.Open(t)
			ptytest.SetSize(t, terminal, 100, 40)
			captured := ptytest.Capture(controller)
			e := cmdtest.New(t)
			for k, v := range c.env {
				e.Setenv(k, v)
			}
			r := e.RunOnTerminal(terminal, "run", "start", "--plan", sandbox.PlanFailing, "--wait")
			if r.Code != 1 {
				t.Fatalf("exit %d, want 1", r.Code)
			}
			terminal.Close()
			seen := captured()
			if !strings.Contains(seen, "Apply an expired coupon") {
				t.Errorf("the terminal lacks the failure:\n%q", seen)
			}
			if got := strings.Contains(seen, "\x1b["); got != c.tty {
				t.Errorf("escape sequences on the terminal: %v, want %v:\n%q", got, c.tty, seen)
			}
			if !c.tty && !strings.Contains(r.Stdout, "Apply an expired coupon") {
				t.Errorf("stdout lacks the table of a pipe:\n%s", r.Stdout)
			}
		})
	}
}

// A table on a narrow terminal is cut to its width; under an agent it is
// printed whole, as off a terminal.
func TestAgentModeTablesNotCut(t *testing.T) {
	list := func(agent string) string {
		controller, terminal := ptytest.Open(t)
		ptytest.SetSize(t, terminal, 40, 40)
		captured := ptytest.Capture(controller)
		e := cmdtest.New(t)
		e.Setenv("OPENCODE", agent)
		if code := e.RunOnTerminalOnly(terminal, "testcase", "list"); code != 0 {
			t.Fatalf("exit %d", code)
		}
		terminal.Close()
		return captured()
	}
	const cut = "Shortened to fit the terminal"
	if seen := list(""); !strings.Contains(seen, cut) {
		t.Fatalf("the table was not cut to 40 columns, the test shows nothing:\n%s", seen)
	}
	if seen := list("1"); strings.Contains(seen, cut) || !strings.Contains(seen, "Apply an expired coupon") {
		t.Errorf("under an agent the table was cut to the terminal:\n%s", seen)
	}
}

// auth login never prompts under an agent: on a terminal it ends at once,
// exit 2, saying to pipe the key; piped, the key is read as ever.
func TestAgentModeAuthLoginNeverPrompts(t *testing.T) {
	controller, terminal := ptytest.Open(t)
	captured := ptytest.Capture(controller)
	e := cmdtest.New(t)
	e.Setenv("CLAUDECODE", "1")
	ios := iostreams.New(terminal, terminal, terminal)
	done := make(chan int, 1)
	go func() {
		done <- root.Run(context.Background(), e.Factory(t, ios), []string{"auth", "login", "--no-verify"})
	}()
	select {
	case code := <-done:
		if code != 2 {
			t.Errorf("exit %d, want 2", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("auth login waits at a prompt under an agent")
	}
	terminal.Close()
	seen := captured()
	if strings.Contains(seen, "Paste your API key") || !strings.Contains(seen, "pipe the key on standard input") {
		t.Errorf("the terminal shows:\n%q", seen)
	}

	r := e.RunWith(cmdtest.RunOptions{Stdin: "k-piped\n"}, "auth", "login", "--no-verify", "--insecure-storage")
	if r.Code != 0 {
		t.Errorf("piped key: exit %d\n%s", r.Code, r.Stderr)
	}
}

// TESTCTL_AGENT takes 0 or 1; anything else is a usage error of every
// command. The process's own variables never reach a cmdtest Env.
func TestAgentModeSettingAndTestIsolation(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_AGENT", "yes")
	r := e.Run("config", "path")
	if r.Code != 2 || !strings.Contains(r.Stderr, "TESTCTL_AGENT") {
		t.Errorf("TESTCTL_AGENT=yes: exit %d\n%s", r.Code, r.Stderr)
	}

	controller, terminal := ptytest.Open(t)
	t.Setenv("CLAUDECODE", "1") // the shell of an agent running the tests
	captured := ptytest.Capture(controller)
	e = cmdtest.New(t)
	if r := e.RunOnTerminal(terminal, "run", "start", "--plan", sandbox.PlanPassing, "--wait"); r.Code != 0 {
		t.Fatalf("exit %d", r.Code)
	}
	terminal.Close()
	if seen := captured(); !strings.Contains(seen, "\x1b[") {
		t.Errorf("the process's CLAUDECODE reached the command:\n%q", seen)
	}
}
