// Package completion implements `testctl completion`.
package completion

import (
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// NewCmdCompletion builds `testctl completion SHELL`.
func NewCmdCompletion(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print the completion script for a shell. Completion covers commands, flags,
enum values and profile names and, from the service, recent run ids, the
plans of the project's recent runs (--plan) and a run's test cases
(logs RUN-<Tab>). Those ask the service for at most a second, with a key from
--api-key, TESTCTL_API_KEY or the config file: never the OS keyring, which may
ask for a password, so with only a key that auth login keeps there, and
without a key, they offer nothing.

bash needs the bash-completion package (version 2): apt install bash-completion,
dnf install bash-completion, or brew install bash-completion@2 (then follow
what brew prints to load it). zsh needs compinit in ~/.zshrc:
autoload -U compinit; compinit.`,
		Example: `  # bash, current shell / permanently
  source <(testctl completion bash)
  testctl completion bash > /etc/bash_completion.d/testctl

  # zsh
  testctl completion zsh > "${fpath[1]}/_testctl"

  # fish
  testctl completion fish > ~/.config/fish/completions/testctl.fish

  # PowerShell
  testctl completion powershell | Out-String | Invoke-Expression`,
		ValidArgs:             []string{"bash", "zsh", "fish", "powershell"},
		Args:                  cobra.MatchAll(cmdutil.ExactArgs(1, "a shell: bash, zsh, fish or powershell", "testctl completion bash"), cobra.OnlyValidArgs),
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := f.IOStreams.Out
			root := cmd.Root()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			default:
				return root.GenPowerShellCompletionWithDesc(out)
			}
		},
	}
}
