package cmdutil

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/termtext"
)

// serviceFlags are the global flags that choose which service, project and
// settings a command talks to. The key is not one of them: a printed
// command line must never carry it.
var serviceFlags = []string{"profile", "config-file", "base-url", "legacy-base-url", "project", "allow-insecure-http"}

// ServiceArgs are the service-choosing global flags given on this command
// line, quoted for a POSIX shell, so that a command printed for the user to
// run next (a resume hint) asks the same service as this one.
func (g *GlobalFlags) ServiceArgs() []string {
	if g == nil || g.FlagSet == nil {
		return nil
	}
	var out []string
	for _, name := range serviceFlags {
		fl := g.FlagSet.Lookup(name)
		if fl == nil || !fl.Changed {
			continue
		}
		if fl.Value.Type() == "bool" {
			out = append(out, "--"+name)
			continue
		}
		out = append(out, "--"+name, ShellQuote(fl.Value.String()))
	}
	return out
}

// ServiceFlags are the same flags as ServiceArgs, as arguments for a
// command line run in this process (--name=value, unquoted): `testctl mcp`
// runs each tool's command with them, so that its hints name the service
// the server was started for.
func (g *GlobalFlags) ServiceFlags() []string {
	if g == nil || g.FlagSet == nil {
		return nil
	}
	var out []string
	for _, name := range serviceFlags {
		if fl := g.FlagSet.Lookup(name); fl != nil && fl.Changed {
			out = append(out, "--"+name+"="+fl.Value.String())
		}
	}
	return out
}

var shellSafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`) })

// ShellWord is a value from the service (a run's or test case's short id)
// as one word of a command printed for the user to paste: on one line,
// without control characters, and quoted when a shell would read it as
// more than one word or run part of it (an id "r1;rm -rf ~").
func ShellWord(s string) string { return ShellQuote(termtext.SanitizeLine(s)) }

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if shellSafe().MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// WaitCommand is the command line that waits on runs, given their short
// ids as the service gave them and the global flags that chose the service
// (see ServiceArgs): the next step after a start, the way to resume, or to
// take up a run a lost start may have created.
func WaitCommand(args, ids []string) string {
	words := slices.Concat([]string{"testctl"}, args, []string{"run", "wait"})
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = ShellWord(id)
	}
	// An id the service chose that starts with "-" would be read as a
	// flag (--junit=FILE writes where it says; quoting does not change
	// that); after "--" it is an argument, which run wait refuses.
	if slices.ContainsFunc(quoted, func(w string) bool { return strings.HasPrefix(w, "-") }) {
		words = append(words, "--")
	}
	return strings.Join(append(words, quoted...), " ")
}

// ConfigSetCommand is `testctl config set KEY VALUE` as a hint to paste:
// with the --profile and --config-file this command line was given, so that
// following it changes the profile the user is working on, not the default
// one (after `auth login --profile org`, `config set project …` alone
// would set the default profile's project).
func (g *GlobalFlags) ConfigSetCommand(key, value string) string {
	words := []string{"testctl", "config", "set", key, value}
	if g != nil && g.FlagSet != nil {
		for _, name := range []string{"profile", "config-file"} {
			if fl := g.FlagSet.Lookup(name); fl != nil && fl.Changed {
				words = append(words, "--"+name, ShellQuote(fl.Value.String()))
			}
		}
	}
	return strings.Join(words, " ")
}
