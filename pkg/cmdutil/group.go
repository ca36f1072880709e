package cmdutil

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/testctl/testctl/pkg/exitcode"
)

// Group makes cmd the parent of its verbs. Alone it prints its help; a verb
// it does not have is a usage error (exit 2) naming the closest ones.
// Cobra's default for a parent below the root prints the help page and exits
// 0, so a typo such as `testctl run wiat` in a CI script would pass the step.
func Group(cmd *cobra.Command, verbs ...*cobra.Command) *cobra.Command {
	cmd.Args = unknownVerb
	cmd.SuggestionsMinimumDistance = 2 // cobra sets it on the root alone
	cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	// A mistyped verb followed by its flags (`run strt --plan x`) reaches
	// the group with flags it does not have; the verb, not the flag, is
	// what is wrong. The error func is inherited by the verbs, so it only
	// speaks for the group itself.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if c == cmd {
			if args := c.Flags().Args(); len(args) > 0 {
				return unknownVerb(c, args)
			}
		}
		return FlagError(err)
	})
	cmd.AddCommand(verbs...)
	return cmd
}

func unknownVerb(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		return exitcode.FlagErrorf("%s\n\nDid you mean this?\n\t%s\n", msg, strings.Join(s, "\n\t"))
	}
	var verbs []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			verbs = append(verbs, c.Name())
		}
	}
	return exitcode.FlagErrorf("%s; its commands: %s", msg, strings.Join(verbs, ", "))
}
