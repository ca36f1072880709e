package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/shellwords"
)

// ConfigOptions are the flags of `testctl mcp config`.
type ConfigOptions struct {
	Client   string
	ReadOnly bool
	// self finds how the snippet names the server's command.
	self whereAmI
}

// clients are the clients a snippet is printed for.
var clients = []string{"claude", "cursor", "vscode"}

func newCmdConfig(f *cmdutil.Factory, runF func(*ConfigOptions) error) *cobra.Command {
	opts := &ConfigOptions{}
	opts.self.executable = os.Executable
	cmd := &cobra.Command{
		Use:   "config --client claude|cursor|vscode",
		Short: "Print the snippet that adds this MCP server to a client",
		Long: `Print, on stdout, the configuration that adds 'testctl mcp' to a coding agent,
with the global flags of this command line that choose the service
(--profile, --config-file, --base-url, --project, --sandbox): the key is
never in it, and a base URL carrying credentials or a query is refused.
The server reads the key as every command does, from the environment, the
profile or the OS keyring. Where the snippet goes is said on stderr.

The snippet's command is "testctl" when this binary is the one on PATH; else
it is this binary's absolute path, and stderr says so. Under 'go run' (a
temporary build, gone when it ends) it asks to build testctl first.`,
		Example: `  testctl --profile prod mcp config --client claude
  testctl --sandbox mcp config --client vscode --read-only > .vscode/mcp.json`,
		Args: cobra.NoArgs,
		PreRunE: func(*cobra.Command, []string) error {
			if !slices.Contains(clients, opts.Client) {
				return exitcode.FlagErrorf("--client must be claude, cursor or vscode, not %q", opts.Client)
			}
			return validateBaseURLs(f.Globals)
		},
		RunE: cmdutil.RunE(f, opts, runF, configRun),
	}
	cmd.Flags().StringVar(&opts.Client, "client", "", "the client: claude (Claude Code), cursor or vscode (required)")
	cmd.Flags().BoolVar(&opts.ReadOnly, "read-only", false, "the server offers only the tools that read")
	_ = cmd.RegisterFlagCompletionFunc("client", completion.CompleteEnum(clients...))
	return cmd
}

// validateBaseURLs refuses, as every command that asks the service does, a
// --base-url or --legacy-base-url carrying credentials, a query or a
// fragment: the snippet would put them in a file meant to be committed.
func validateBaseURLs(g *cmdutil.GlobalFlags) error {
	for _, fl := range []struct{ name, what string }{{"base-url", "base URL"}, {"legacy-base-url", "legacy base URL"}} {
		if given := g.FlagSet.Lookup(fl.name); given != nil && given.Changed {
			if err := config.ValidateBaseURL(given.Value.String()); err != nil {
				return exitcode.UsageErrorf("invalid %s (from --%s): %v", fl.what, fl.name, err)
			}
		}
	}
	return nil
}

func configRun(_ context.Context, f *cmdutil.Factory, opts *ConfigOptions) error {
	args := f.Globals.ServiceFlags()
	if f.Globals.Sandbox {
		args = append(args, "--sandbox")
	}
	args = append(args, "mcp")
	if opts.ReadOnly {
		args = append(args, "--read-only")
	}
	opts.self.path = f.Getenv("PATH")
	command, note, err := opts.self.command()
	if err != nil {
		return err
	}
	server := map[string]any{"command": command, "args": args}
	var doc any
	var where string
	switch opts.Client {
	case "claude":
		doc = map[string]any{"mcpServers": map[string]any{"testctl": server}}
		where = "Claude Code: save as .mcp.json at the repository's root (or run: claude mcp add testctl -- " + shellwords.Quote(command) + " " + joinArgs(args) + ")"
	case "cursor":
		doc = map[string]any{"mcpServers": map[string]any{"testctl": server}}
		where = "Cursor: save as .cursor/mcp.json in the project (or ~/.cursor/mcp.json for every project)"
	case "vscode":
		server["type"] = "stdio"
		doc = map[string]any{"servers": map[string]any{"testctl": server}}
		where = "VS Code: save as .vscode/mcp.json in the workspace"
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintln(f.IOStreams.Out, string(b))
	if note != "" {
		fmt.Fprintln(f.IOStreams.ErrOut, note)
	}
	fmt.Fprintln(f.IOStreams.ErrOut, where)
	return nil
}

func joinArgs(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellwords.Quote(a)
	}
	return strings.Join(quoted, " ")
}
