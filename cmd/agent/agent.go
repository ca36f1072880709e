// Package agent groups the verbs that prepare a repository for coding agents.
package agent

import (
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/agent/setup"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// NewCmdAgent builds `testctl agent`.
func NewCmdAgent(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "agent <command>",
		Short: "Teach coding agents to use testctl in this repository",
		Long: `Coding agents (Claude Code, Codex, Cursor, GitHub Copilot) read instructions
from files of the repository. 'agent setup' writes testctl's there; 'testctl
mcp' serves the same commands as tools to agents that prefer MCP.`,
		Example: `  testctl agent setup --agent claude
  testctl agent setup --agent all --check`,
	}, setup.NewCmdSetup(f, nil))
}
