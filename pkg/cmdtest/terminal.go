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
