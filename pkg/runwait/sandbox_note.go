package runwait

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/shellwords"
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

// replacedByNote are the flags the note's exports stand for: a served
// sandbox's URL and key in place of --sandbox's own.
var replacedByNote = []string{"sandbox", "api-key", "base-url", "legacy-base-url", "project", "profile", "config-file", "allow-insecure-http"}

// queryValue is a value in a URL's query, which may be a secret.
var queryValue = regexp.MustCompile(`([?&][^=&\s]+=)[^&\s,]*`)

// AgainFlags are the flags given on a command line (fs, once parsed), as
// words of the note's command, so that it makes the same example
// (--branch feature --baseline main): all but those the note's exports
// replace and those in skip, which the caller writes itself. Query values
// of a URL are masked, as in every output.
func AgainFlags(fs *pflag.FlagSet, skip ...string) []string {
	var words []string
	fs.Visit(func(f *pflag.Flag) {
		if slices.Contains(replacedByNote, f.Name) || slices.Contains(skip, f.Name) {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			switch {
			case f.Value.Type() == "bool" && v == "true":
				words = append(words, "--"+f.Name)
			case f.Value.Type() == "bool":
				words = append(words, "--"+f.Name+"="+v)
			default:
				words = append(words, "--"+f.Name, shellwords.Word(queryValue.ReplaceAllString(v, "${1}***")))
			}
		}
	})
	return words
}
