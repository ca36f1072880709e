//go:build linux

package e2e_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/ptytest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Issue 39, point 4: in a shell where stdout and stderr are one terminal,
// a wait's failure story is not followed by a table of the test cases,
// which would repeat it and the test cases' lines above it; -o table asks
// for it, and a stdout elsewhere gets it unchanged.
func TestNoCaseTableAfterTheStoryOnOneTerminal(t *testing.T) {
	e := cmdtest.New(t)
	onTerminal := func(args ...string) string {
		controller, terminal := ptytest.Open(t)
		ptytest.SetSize(t, terminal, 100, 40)
		captured := ptytest.Capture(controller)
		if code := e.RunOnTerminalOnly(terminal, args...); code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		terminal.Close()
		return ansi.Strip(captured())
	}
	seen := onTerminal("run", "start", "--plan", sandbox.PlanFailing, "--wait")
	cmdtest.Contains(t, "the terminal", seen, "1. ✗ Apply an expired coupon FAILED", "✗ failed (exit 1): 4 passed · 2 failed · 1 skipped")
	if strings.Contains(seen, "SHORT ID") || strings.Contains(seen, "Shortened to fit") {
		t.Errorf("a table follows the story:\n%s", seen)
	}

	seen = onTerminal("run", "start", "--plan", sandbox.PlanFailing, "--wait", "-o", "table")
	table := seen[strings.Index(seen, "✗ failed (exit 1)"):]
	cmdtest.Contains(t, "after the story, with -o table", table, "SHORT ID", "  Log in with email and password  ")

	controller, terminal := ptytest.Open(t)
	ptytest.SetSize(t, terminal, 100, 40)
	captured := ptytest.Capture(controller)
	r := e.RunOnTerminal(terminal, "run", "start", "--plan", sandbox.PlanFailing, "--wait").Expect(t, 1)
	terminal.Close()
	cmdtest.Contains(t, "stderr", ansi.Strip(captured()), "✗ failed (exit 1)")
	if rows := pipedRows(r.Stdout); len(rows) != 7 || !strings.HasPrefix(r.Stdout, "SHORT ID\tNAME\tSTATUS\tRESULT\tRESULT TITLE\n") {
		t.Errorf("stdout elsewhere is the table:\n%s", r.Stdout)
	}
}
