//go:build linux

package iostreams

import (
	"bytes"
	"context"
	"errors"
	"os"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/testctl/testctl/pkg/ptytest"
)

// readSecretTyped types keys at the terminal once the prompt has turned
// echo off (what a person does), and returns what ReadSecret returned. The
// keys must come after: the terminal acts on Ctrl-C as it receives it.
func readSecretTyped(t *testing.T, keys string) typed {
	t.Helper()
	return readSecretWhile(t, func(controller *os.File, _ context.CancelFunc) {
		if _, err := controller.Write([]byte(keys)); err != nil {
			t.Error(err)
		}
	})
}

// readSecretWhile calls act once the prompt has turned echo off, and
// returns what ReadSecret returned.
func readSecretWhile(t *testing.T, act func(controller *os.File, cancel context.CancelFunc)) typed {
	t.Helper()
	controller, terminal := ptytest.Open(t)
	fd := int(terminal.Fd())
	before, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	ios := &IOStreams{In: terminal, Out: &bytes.Buffer{}, ErrOut: &errOut}
	type result struct {
		got string
		err error
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan result, 1)
	go func() {
		got, err := ios.ReadSecret(ctx, "API key: ")
		done <- result{got, err}
	}()
	for {
		st, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if st.Lflag&unix.ECHO == 0 {
			break
		}
		runtime.Gosched()
	}
	act(controller, cancel)
	r := <-done
	after, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return typed{got: r.got, err: r.err, stderr: errOut.String(), restored: *after == *before}
}

type typed struct {
	got      string
	err      error
	stderr   string
	restored bool // the terminal's state after is the state before
}

func TestCtrlCAtTheHiddenPromptOfATerminal(t *testing.T) {
	// With the terminal's own Ctrl-C (ISIG), as x/term's ReadPassword
	// leaves it, 0x03 would never reach the reader and Enter would end an
	// empty line.
	r := readSecretTyped(t, "sk-\x03\r")
	if !errors.Is(r.err, ErrInterrupted) || r.got != "" {
		t.Fatalf("ReadSecret() = %q, %v; want ErrInterrupted", r.got, r.err)
	}
	if !r.restored {
		t.Error("terminal not restored")
	}
	if r.stderr != "API key: \n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestHiddenPromptOfATerminalReadsTheKey(t *testing.T) {
	r := readSecretTyped(t, "sk-9x\x7f8\r")
	if r.err != nil || r.got != "sk-98" || !r.restored {
		t.Fatalf("ReadSecret() = %q, %v; restored %v", r.got, r.err, r.restored)
	}
}

// A signal from outside (SIGTERM from a CI runner) ends the prompt too.
func TestCancelledHiddenPromptRestoresTheTerminal(t *testing.T) {
	r := readSecretWhile(t, func(_ *os.File, cancel context.CancelFunc) { cancel() })
	if !errors.Is(r.err, context.Canceled) || !r.restored {
		t.Fatalf("ReadSecret() = %q, %v; restored %v", r.got, r.err, r.restored)
	}
}
