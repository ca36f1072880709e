//go:build linux

package e2e_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/ptytest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// run start --wait on a real terminal: its stderr is found to be one, so
// the live view, the colour and the terminal's hints are there. (The start
// once wrapped stderr in a lock that hid the terminal from all of them.)
func TestStartWaitOnATerminalKeepsTheLiveView(t *testing.T) {
	controller, terminal := ptytest.Open(t)
	ptytest.SetSize(t, terminal, 100, 40)
	var mu sync.Mutex
	var seen bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		b := make([]byte, 4096)
		for {
			n, err := controller.Read(b)
			mu.Lock()
			seen.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	e := cmdtest.New(t)
	r := e.RunOnTerminal(terminal, "run", "start", "--plan", sandbox.PlanFailing, "--wait")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1", r.Code)
	}
	terminal.Close()
	<-done
	mu.Lock()
	defer mu.Unlock()
	out := seen.String()
	for _, want := range []string{"Started run", "Apply an expired coupon", "COMPLETED"} {
		if !bytes.Contains(seen.Bytes(), []byte(want)) {
			t.Errorf("the terminal lacks %q:\n%q", want, out)
		}
	}
	if !bytes.Contains(seen.Bytes(), []byte("\x1b[")) {
		t.Errorf("no colour or redraw reached the terminal: stderr was not taken for one:\n%q", out)
	}
}
