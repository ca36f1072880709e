package runwait

import (
	"fmt"
	"strings"

	"github.com/testctl/testctl/pkg/api"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/termtext"
)

// ServedSandboxURL is where `testctl sandbox` listens by default.
const ServedSandboxURL = "http://127.0.0.1:8787"

// NoteSandboxRuns tells stderr, on a terminal or not, that runs started
// under --sandbox lived in this command's emulator and ended with it, and
// how to keep runs between commands: a newcomer's first `run start` exits
// 0 and a later `run get` of its id finds nothing. again is a command line
// to try against a served sandbox; waited says the runs were waited for,
// and hinted that the report printed commands for them (`testctl logs …`,
// `testctl run get …`) that find nothing once pasted. Nothing is said
// without --sandbox.
func NoteSandboxRuns(f *cmdutil.Factory, ids []string, again string, waited, hinted bool) {
	if f.Globals == nil || !f.Globals.Sandbox || len(ids) == 0 {
		return
	}
	shown := make([]string, len(ids))
	for i, id := range ids {
		shown[i] = termtext.SanitizeLine(id)
	}
	what := "run " + shown[0] + " lived"
	if len(shown) > 1 {
		what = "runs " + strings.Join(shown, ", ") + " lived"
	}
	stopped, then := ".", "or add --wait to see the verdict in this command.\n"
	if waited {
		then = ""
	}
	if hinted {
		stopped = ": the commands printed above for it find nothing now."
	}
	fmt.Fprintf(f.IOStreams.ErrOut, "Note: %s in this command's embedded sandbox (--sandbox), which stopped with it%s\n"+
		"To keep runs between commands, serve a sandbox in another terminal with `testctl sandbox`, then:\n"+
		"  export TESTCTL_BASE_URL=%s TESTCTL_API_KEY=sandbox-project-key\n"+
		"  %s\n%s", what, stopped, ServedSandboxURL, termtext.SanitizeLine(again), then)
}

// NoteSandboxNotFound completes a 404 under --sandbox: every command starts
// its own empty emulator, so an id a previous command printed is never in
// it, whatever its shape.
func NoteSandboxNotFound(f *cmdutil.Factory, err error) {
	if f.Globals == nil || !f.Globals.Sandbox || !api.IsNotFound(err) {
		return
	}
	fmt.Fprintf(f.IOStreams.ErrOut, "Note: with --sandbox each command starts its own empty sandbox, so ids printed by an earlier command are not in it.\n"+
		"To keep runs between commands, serve a sandbox in another terminal with `testctl sandbox`, then:\n"+
		"  export TESTCTL_BASE_URL=%s TESTCTL_API_KEY=sandbox-project-key\n", ServedSandboxURL)
}
