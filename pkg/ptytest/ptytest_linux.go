//go:build linux

package ptytest

import (
	"fmt"
	"os"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/testctl/testctl/pkg/agentenv"
)

// Open opens a pseudo-terminal pair, closed when the test ends; a machine
// without pseudo-terminals skips the test. It clears the variables that
// name a coding agent for the test (so it cannot be parallel): a terminal
// test run in an agent's shell still gets the terminal.
func Open(t testing.TB) (controller, terminal *os.File) {
	t.Helper()
	for _, name := range append([]string{agentenv.Override}, agentenv.Names...) {
		t.Setenv(name, "")
	}
	c, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := unix.IoctlSetPointerInt(int(c.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(c.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	term, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	return c, term
}

// SetSize gives the terminal a size in columns and rows.
func SetSize(t testing.TB, terminal *os.File, cols, rows uint16) {
	t.Helper()
	if err := unix.IoctlSetWinsize(int(terminal.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: cols, Row: rows}); err != nil {
		t.Fatal(err)
	}
}
