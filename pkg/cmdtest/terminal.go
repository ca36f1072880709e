package cmdtest

import (
	"bytes"
	"context"
	"os"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/sandbox"
)

// RunOnTerminal executes a command line whose stderr is terminal, a real
// (pseudo-)terminal's file: what the command knows of it, it finds out
// itself, as it would in a user's shell. Stdout is captured.
func (e *Env) RunOnTerminal(terminal *os.File, args ...string) Result {
	e.t.Helper()
	var out bytes.Buffer
	ios := iostreams.New(bytes.NewReader(nil), &out, terminal)
	f, cleanup := factory.New("test", factory.Options{
		IOStreams: ios, LookupEnv: e.lookup, Clock: e.Clock,
		Sandbox: sandbox.Options{Clock: e.Clock},
	})
	defer cleanup()
	code := root.Run(context.Background(), f, args)
	return Result{Stdout: out.String(), Code: code}
}
