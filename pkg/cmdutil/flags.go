package cmdutil

import (
	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/output"
)

// GlobalFlags are the root command's persistent flags that are not settings
// resolved by config (those are read from the flag set itself).
type GlobalFlags struct {
	FlagSet           *pflag.FlagSet
	Sandbox           bool
	Debug             bool
	NoColor           bool
	AllowInsecureHTTP bool
	JQ                string
	// EnvError is a setting of the environment no command can run with
	// (TESTCTL_AGENT=yes), found by the factory, reported by Check.
	EnvError error
}

// AddGlobalFlags registers every global flag of the contract on fs.
func AddGlobalFlags(fs *pflag.FlagSet, g *GlobalFlags) {
	g.FlagSet = fs
	fs.String("api-key", "", "API key (prefer 'testctl auth login' or TESTCTL_API_KEY: flags end up in shell history)")
	fs.String("base-url", "", "service base URL without /v1 (env TESTCTL_BASE_URL)")
	fs.String("legacy-base-url", "", "base URL of the deprecated legacy address (env TESTCTL_LEGACY_BASE_URL)")
	fs.StringP("project", "p", "", "project short id, proj_<id> or proj-<slug>_<id> (env TESTCTL_PROJECT); required with organization-scoped keys")
	fs.String("profile", "", "config profile to use (env TESTCTL_PROFILE)")
	fs.String("config-file", "", "config file (env TESTCTL_CONFIG; default $XDG_CONFIG_HOME/testctl/config.yaml)")
	fs.StringP("output", "o", "", "output format: table, json or yaml (env TESTCTL_OUTPUT; default table)")
	fs.StringVar(&g.JQ, "jq", "", "filter JSON output with a jq expression (implies -o json); several runs give an array: --jq '.[].status'")
	fs.BoolVar(&g.NoColor, "no-color", false, "disable colour (also NO_COLOR)")
	fs.BoolVar(&g.Debug, "debug", false, "log HTTP requests and responses to stderr, key redacted (also TESTCTL_DEBUG=1)")
	fs.String("http-timeout", "", "timeout of one HTTP request (default 30s)")
	fs.BoolVar(&g.AllowInsecureHTTP, "allow-insecure-http", false, "allow sending the API key over plain http:// to a non-loopback host")
	fs.BoolVar(&g.Sandbox, "sandbox", false, "run against an embedded emulator of the service; nothing else needs configuring")
}

// Check refuses global flags that contradict each other or that no command
// could use, before any command runs: a command that prints no data would
// otherwise accept `-o xml` in silence, and --sandbox would quietly ignore
// the URL --base-url names.
func (g *GlobalFlags) Check() error {
	if g.EnvError != nil {
		return &exitcode.UsageError{Err: g.EnvError}
	}
	if g.FlagSet == nil {
		return nil
	}
	if g.Sandbox {
		for _, name := range []string{"base-url", "legacy-base-url"} {
			if g.FlagSet.Changed(name) {
				url := g.FlagSet.Lookup(name).Value.String()
				return exitcode.FlagErrorf("--sandbox and --%[1]s cannot be used together: --sandbox runs this command against "+
					"an emulator of its own and would ignore %[2]s\n"+
					"  to use a sandbox served by `testctl sandbox` there: drop --sandbox, add --api-key sandbox-project-key\n"+
					"  to use the service there: drop --sandbox", name, url)
			}
		}
	}
	if g.FlagSet.Changed("output") {
		if _, err := output.ParseFormat(g.FlagSet.Lookup("output").Value.String()); err != nil {
			return &exitcode.FlagError{Err: err}
		}
	}
	return nil
}
