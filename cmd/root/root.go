// Package root assembles the command tree and turns its errors into exit codes.
package root

import (
	"context"

	"github.com/spf13/cobra"

	agentcmd "github.com/testctl/testctl/cmd/agent"
	apicmd "github.com/testctl/testctl/cmd/api"
	authcmd "github.com/testctl/testctl/cmd/auth"
	"github.com/testctl/testctl/cmd/cistep"
	completioncmd "github.com/testctl/testctl/cmd/completion"
	configcmd "github.com/testctl/testctl/cmd/config"
	logscmd "github.com/testctl/testctl/cmd/logs"
	mcpcmd "github.com/testctl/testctl/cmd/mcp"
	runcmd "github.com/testctl/testctl/cmd/run"
	sandboxcmd "github.com/testctl/testctl/cmd/sandbox"
	testcasecmd "github.com/testctl/testctl/cmd/testcase"
	tunnelcmd "github.com/testctl/testctl/cmd/tunnel"
	versioncmd "github.com/testctl/testctl/cmd/version"
	"github.com/testctl/testctl/pkg/build"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
)

// NewCmdRoot returns the testctl command with every subcommand.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	return newCmdRoot(f, func(ctx context.Context, args []string) error {
		_, err := execute(ctx, f, args)
		return err
	})
}

// newCmdRoot is NewCmdRoot with the way `ci-step` runs the command line it
// builds: on a command tree of its own, in this process.
func newCmdRoot(f *cmdutil.Factory, exec cistep.Exec) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "testctl <command> <subcommand> [flags]",
		Short: "Run and inspect AI-driven test runs from the command line",
		Long: `testctl starts test runs from a plan or a list of test cases, waits for their
verdict, reports results as tables, JSON or JUnit, and reads the telemetry
captured while tests ran.

Try every command without an account against the embedded emulator:
  testctl --sandbox run start --plan pln-passing_sandbox --wait`,
		Example: `  # Configure once, then start a run and gate a CI step on its verdict
  testctl config set base_url https://api.example.com
  testctl auth login < key.txt
  testctl run start --plan pln-checkout_a1b2 --codehost --wait --junit report.xml`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       build.Current().Version,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			f.Command = cmd.CommandPath()
			if f.Globals.NoColor {
				f.IOStreams.SetColorDisabled(true)
			}
			return f.Globals.Check()
		},
	}
	cmd.SetVersionTemplate("testctl {{.Version}}\n")
	cmd.SetUsageFunc(usageFunc(f.IOStreams))
	// Our own completion command documents installation and stays in the tree.
	cmd.CompletionOptions.DisableDefaultCmd = true
	cmdutil.AddGlobalFlags(cmd.PersistentFlags(), f.Globals)
	_ = cmd.RegisterFlagCompletionFunc("output", completion.CompleteEnum("table", "json", "yaml"))
	_ = cmd.RegisterFlagCompletionFunc("profile", completion.CompleteProfiles(f))
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdutil.FlagError(err) })

	cmd.AddCommand(configcmd.NewCmdConfig(f))
	cmd.AddCommand(authcmd.NewCmdAuth(f))
	cmd.AddCommand(runcmd.NewCmdRun(f))
	cmd.AddCommand(versioncmd.NewCmdVersion(f, nil))
	cmd.AddCommand(completioncmd.NewCmdCompletion(f))
	cmd.AddCommand(sandboxcmd.NewCmdSandbox(f, nil))
	cmd.AddCommand(testcasecmd.NewCmdTestcase(f))
	cmd.AddCommand(logscmd.NewCmdLogs(f, nil))
	cmd.AddCommand(tunnelcmd.NewCmdTunnel(f))
	cmd.AddCommand(apicmd.NewCmdAPI(f, nil))
	cmd.AddCommand(cistep.NewCmdCIStep(f, exec, nil))
	cmd.AddCommand(mcpcmd.NewCmdMCP(f, Run, nil))
	cmd.AddCommand(agentcmd.NewCmdAgent(f))
	addHelpTopics(cmd)
	return cmd
}
