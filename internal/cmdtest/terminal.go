package cmdtest

import (
	"bytes"
	"context"
	"os"

	"github.com/testctl/testctl/pkg/iostreams"
)

// RunOnTerminal executes a command line whose stderr is terminal, a real
// (pseudo-)terminal's file: what the command knows of it, it finds out
// itself, as it would in a user's shell. Stdout is captured.
func (e *Env) RunOnTerminal(terminal *os.File, args ...string) Result {
	e.t.Helper()
	var out bytes.Buffer
	ios := iostreams.New(bytes.NewReader(nil), &out, terminal)
	code := e.run(context.Background(), ios, args)
	return Result{Stdout: out.String(), Code: code}
}

// RunOnTerminalOnly executes a command line whose stdout and stderr are
// both the terminal, as in a user's shell: what the command wrote is read
// from the pseudo-terminal's other end. It returns the exit code.
func (e *Env) RunOnTerminalOnly(terminal *os.File, args ...string) int {
	e.t.Helper()
	ios := iostreams.New(bytes.NewReader(nil), terminal, terminal)
	return e.run(context.Background(), ios, args)
}
