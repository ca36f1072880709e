package cmdutil

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/testctl/testctl/pkg/exitcode"
)

// ExactArgs is the Args of a command taking n positional arguments. Where
// cobra would say "accepts 1 arg(s), received 0", it names what is missing
// and shows a command line that works: what is "a run short id" (or "a key
// and a value"), example the whole line, "testctl run get r4m0gl".
// Both errors are usage errors (exit 2).
func ExactArgs(n int, what, example string) cobra.PositionalArgs {
	return argsBetween(n, n, what, example)
}

// MinimumArgs is ExactArgs for a command taking n or more arguments.
func MinimumArgs(n int, what, example string) cobra.PositionalArgs {
	return argsBetween(n, -1, what, example)
}

func argsBetween(least, most int, what, example string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
		switch {
		case len(args) < least:
			return exitcode.FlagErrorf("%s needs %s, e.g. %s", name, what, example)
		case most >= 0 && len(args) > most:
			return exitcode.FlagErrorf("%s takes %s, not %d arguments (%s), e.g. %s",
				name, what, len(args), strings.Trim(fmt.Sprintf("%q", args), "[]"), example)
		}
		return nil
	}
}
