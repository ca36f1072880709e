package cmdutil

import (
	"strings"

	"github.com/testctl/testctl/pkg/shellwords"
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
		out = append(out, "--"+name, shellwords.Quote(fl.Value.String()))
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
				words = append(words, "--"+name, shellwords.Quote(fl.Value.String()))
			}
		}
	}
	return strings.Join(words, " ")
}
