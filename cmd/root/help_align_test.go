package root_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// pflag pads flag names by their length in bytes, so a name or value
// placeholder with "…" (three bytes, one column) pushes its description two
// columns left of the others. Every command's flags and global flags must
// start their descriptions in one column, counted in display width.
func TestHelpFlagDescriptionsAlign(t *testing.T) {
	gap := regexp.MustCompile(`\S(\s{3,})\S`)
	for _, c := range append(allCommands(newRoot(t)), newRoot(t)) {
		for group, usages := range map[string]string{"Flags": c.LocalFlags().FlagUsages(), "Global Flags": c.InheritedFlags().FlagUsages()} {
			column := -1
			for _, line := range strings.Split(usages, "\n") {
				if !strings.HasPrefix(strings.TrimLeft(line, " "), "-") {
					continue // a continuation of a multi-line description
				}
				loc := gap.FindStringSubmatchIndex(line)
				if loc == nil {
					t.Errorf("%s %s: no description in %q", c.CommandPath(), group, line)
					continue
				}
				at := ansi.StringWidth(line[:loc[3]])
				if column < 0 {
					column = at
				} else if at != column {
					t.Errorf("%s %s: description at column %d, not %d: %q", c.CommandPath(), group, at, column, line)
				}
			}
		}
	}
}
