//go:build linux

package iostreams

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/testctl/testctl/pkg/ptytest"
)

// ptyOutput collects what the terminal side of a pty was sent.
type ptyOutput struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	fresh chan struct{}
}

func readPTY(controller *os.File) *ptyOutput {
	o := &ptyOutput{fresh: make(chan struct{}, 1)}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := controller.Read(b)
			o.mu.Lock()
			o.buf.Write(b[:n])
			o.mu.Unlock()
			select {
			case o.fresh <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return o
}

// waitFor blocks until text has been drawn after the first from bytes,
// and returns the length of the output then.
func (o *ptyOutput) waitFor(t *testing.T, from int, text string) int {
	t.Helper()
	failsafe := time.After(20 * time.Second) // never the assertion: a hung spinner
	for {
		o.mu.Lock()
		seen := bytes.Contains(o.buf.Bytes()[from:], []byte(text))
		n := o.buf.Len()
		o.mu.Unlock()
		if seen {
			return n
		}
		select {
		case <-o.fresh:
		case <-failsafe:
			t.Fatalf("%q never appeared on the terminal", text)
		}
	}
}

// The live line of a wait, in a terminal narrower than the line, is cut
// to the width and its redraws leave the lines above exactly as they were:
// the real spinner draws on a pty of each width, which is the process's
// descriptor 0 too, as in a user's shell, and a screen model fed those
// bytes must show what the same lines show without any spinner. (The
// spinner library measured its line in bytes against the width of
// descriptor 0: a line fitted to the width counted as two, and each frame
// erased the line above.)
func TestLiveLineNeverEatsTheLinesAbove(t *testing.T) {
	for _, width := range []int{20, 33, 40, 50, 60, 72} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			controller, terminal := ptytest.Open(t)
			ws := &unix.Winsize{Col: uint16(width), Row: 40}
			if err := unix.IoctlSetWinsize(int(terminal.Fd()), unix.TIOCSWINSZ, ws); err != nil {
				t.Fatal(err)
			}
			stdinIs(t, terminal)
			out := readPTY(controller)
			ios := &IOStreams{In: terminal, Out: terminal, ErrOut: terminal, stdinTTY: ttyYes, stdoutTTY: ttyYes, stderrTTY: ttyYes}
			var static strings.Builder
			say := func(line string) {
				fmt.Fprintln(ios.ErrOut, line)
				static.WriteString(line + "\r\n") // the pty turns \n into \r\n
			}
			say("$ testctl run wait r1a2b3")
			say("✓ Started run r1a2b3 (5 tests): https://app.example/runs/r1a2b3")
			say("  ✓ Log in with email and password")
			ios.StartSpinner("run r1a2b3 RUNNING 00:01 · 1 passed · 1 failed · 2 running · 1 queued")
			n := out.waitFor(t, 0, "r1a2b3 RUN")
			// A test case finishes: the live view stops the spinner, prints,
			// and starts it again with a new message.
			ios.StopSpinner()
			say("  ✗ Apply an expired coupon (FAILED) — Expired coupon SPRING-2019 was accepted")
			ios.StartSpinner("run r9z8y7 RUNNING 00:02 · 1 passed · 2 failed · 1 running · 1 queued")
			n = out.waitFor(t, n, "r9z8y7 RUN")
			ios.StopSpinner()
			say("END")
			out.waitFor(t, n, "END")

			out.mu.Lock()
			got := newScreen(width)
			_, _ = got.Write(out.buf.Bytes())
			out.mu.Unlock()
			want := newScreen(width)
			_, _ = want.Write([]byte(static.String()))
			if got.text() != want.text() {
				t.Errorf("at %d columns the screen is\n%s\nwant\n%s", width, got.text(), want.text())
			}
		})
	}
}

// stdinIs makes f the process's descriptor 0 until the test ends.
func stdinIs(t *testing.T, f *os.File) {
	t.Helper()
	saved, err := unix.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Dup3(int(f.Fd()), 0, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = unix.Dup3(saved, 0, 0)
		_ = unix.Close(saved)
	})
}

// Stderr a terminal and stdout a pipe, as in `testctl run wait ID -o json
// | jq`: the spinner still draws on stderr. The streams wrap stderr in a
// lock, and the spinner library, not seeing a file, looked at stdout.
func TestSpinnerOnAPipedCommand(t *testing.T) {
	controller, terminal := ptytest.Open(t)
	out := readPTY(controller)
	var stdout bytes.Buffer
	ios := New(bytes.NewReader(nil), &stdout, terminal)
	ios.StartSpinner("run r1a2b3 RUNNING 00:01")
	out.waitFor(t, 0, "r1a2b3 RUNNING")
	ios.StopSpinner()
	if stdout.Len() > 0 {
		t.Errorf("the spinner wrote to stdout: %q", stdout.String())
	}
}
