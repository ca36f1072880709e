// Package tunnel groups the remote tunnel verbs.
package tunnel

import (
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/tunnel/status"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// NewCmdTunnel builds `testctl tunnel`.
func NewCmdTunnel(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "tunnel <command>",
		Short: "Inspect remote tunnels to locally hosted environments",
		Long: `A remote tunnel lets the platform reach an environment hosted on your machine
or CI runner. Its health follows its edge connections: inactive with none,
degraded with 1 to 3, healthy with 4 or more.`,
		Example: `  testctl tunnel status runner-ci-42
  testctl tunnel status runner-ci-42 --wait-until healthy --timeout 2m`,
	}, status.NewCmdStatus(f, nil))
}
