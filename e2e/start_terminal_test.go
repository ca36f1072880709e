//go:build linux

package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/ptytest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// run start --wait on a real terminal: its stderr is found to be one, so
// the live view, the colour and the terminal's hints are there. (The start
// once wrapped stderr in a lock that hid the terminal from all of them.)
func TestStartWaitOnATerminalKeepsTheLiveView(t *testing.T) {
	controller, terminal := ptytest.Open(t)
	ptytest.SetSize(t, terminal, 100, 40)
	captured := ptytest.Capture(controller)
	e := cmdtest.New(t)
	r := e.RunOnTerminal(terminal, "run", "start", "--plan", sandbox.PlanFailing, "--wait")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1", r.Code)
	}
	terminal.Close()
	seen := captured()
	for _, want := range []string{"Started run", "Apply an expired coupon", "COMPLETED"} {
		if !strings.Contains(seen, want) {
			t.Errorf("the terminal lacks %q:\n%q", want, seen)
		}
	}
	if !strings.Contains(seen, "\x1b[") {
		t.Errorf("no colour or redraw reached the terminal: stderr was not taken for one:\n%q", seen)
	}
}
