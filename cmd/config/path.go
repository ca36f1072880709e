package config

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// PathOptions are the inputs of `config path`.
type PathOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdPath builds `config path`.
func NewCmdPath(f *cmdutil.Factory, runF func(*PathOptions) error) *cobra.Command {
	opts := &PathOptions{Factory: f}
	return &cobra.Command{
		Use:     "path",
		Short:   "Print the config file's location",
		Example: `  $EDITOR "$(testctl config path)"`,
		Args:    cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			cfg, err := opts.Factory.Config()
			if err != nil {
				return err
			}
			fmt.Fprintln(opts.Factory.IOStreams.Out, cfg.Path())
			return nil
		},
	}
}
