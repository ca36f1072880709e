// Package auth implements `testctl auth`: storing, checking and removing the API key.
package auth

import (
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// NewCmdAuth groups the auth verbs.
func NewCmdAuth(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "auth <command>",
		Short: "Store, check and remove the API key",
		Long: `API keys are created in the organization settings of the service. A key is
project-scoped (the project is inferred) or organization-scoped (then set a
project with --project, TESTCTL_PROJECT or ` + "`testctl config set project`" + `).`,
	}, NewCmdLogin(f, nil), NewCmdStatus(f, nil), NewCmdLogout(f, nil))
}
