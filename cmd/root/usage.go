package root

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/iostreams"
)

// usageFunc is cobra's default usage text with the flags' descriptions
// wrapped to the terminal: cobra prints each on one line, so at 80 columns
// a long one runs past the edge and the terminal breaks it under the flag
// names. Off a terminal (a pager, a file, the docs) the lines stay whole.
func usageFunc(ios *iostreams.IOStreams) func(*cobra.Command) error {
	return func(c *cobra.Command) error {
		width := 0
		if ios.IsStdoutTTY() {
			width = ios.TerminalWidth()
		}
		flags := func(fs *pflag.FlagSet) string {
			return strings.TrimRight(fs.FlagUsagesWrapped(width), " \t\n")
		}
		var b strings.Builder
		b.WriteString("Usage:")
		if c.Runnable() {
			fmt.Fprintf(&b, "\n  %s", c.UseLine())
		}
		if c.HasAvailableSubCommands() {
			fmt.Fprintf(&b, "\n  %s [command]", c.CommandPath())
		}
		if len(c.Aliases) > 0 {
			fmt.Fprintf(&b, "\n\nAliases:\n  %s", c.NameAndAliases())
		}
		if c.HasExample() {
			fmt.Fprintf(&b, "\n\nExamples:\n%s", c.Example)
		}
		if c.HasAvailableSubCommands() {
			b.WriteString("\n\nAvailable Commands:")
			for _, sub := range c.Commands() {
				if sub.IsAvailableCommand() || sub.Name() == "help" {
					fmt.Fprintf(&b, "\n  %-*s %s", sub.NamePadding(), sub.Name(), sub.Short)
				}
			}
		}
		if c.HasAvailableLocalFlags() {
			fmt.Fprintf(&b, "\n\nFlags:\n%s", flags(c.LocalFlags()))
		}
		if c.HasAvailableInheritedFlags() {
			fmt.Fprintf(&b, "\n\nGlobal Flags:\n%s", flags(c.InheritedFlags()))
		}
		if c.HasHelpSubCommands() {
			b.WriteString("\n\nAdditional help topics:")
			for _, sub := range c.Commands() {
				if sub.IsAdditionalHelpTopicCommand() {
					fmt.Fprintf(&b, "\n  %-*s %s", sub.CommandPathPadding(), sub.CommandPath(), sub.Short)
				}
			}
		}
		if c.HasAvailableSubCommands() {
			fmt.Fprintf(&b, "\n\nUse \"%s [command] --help\" for more information about a command.", c.CommandPath())
		}
		b.WriteString("\n")
		_, err := fmt.Fprint(c.OutOrStderr(), b.String())
		return err
	}
}
