package auth

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
)

// LogoutOptions are the inputs of `auth logout`.
type LogoutOptions struct {
	Factory *cmdutil.Factory
}

// NewCmdLogout builds `auth logout`.
func NewCmdLogout(f *cmdutil.Factory, runF func(*LogoutOptions) error) *cobra.Command {
	opts := &LogoutOptions{Factory: f}
	return &cobra.Command{
		Use:     "logout",
		Short:   "Remove the stored API key from the active profile",
		Example: `  testctl auth logout --profile staging`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmdutil.Dispatch(cmd.Context(), opts, runF, logoutRun)
		},
	}
}

func logoutRun(_ context.Context, opts *LogoutOptions) error {
	cfg, err := opts.Factory.Config()
	if err != nil {
		return err
	}
	removed, err := cfg.Unset(config.KeyAPIKey)
	if err != nil {
		return err
	}
	ios := opts.Factory.IOStreams
	if removed {
		fmt.Fprintf(ios.ErrOut, "%s Removed the API key from profile %q (%s)\n", ios.ErrStyles().SuccessIcon(), cfg.Profile(), cfg.Path())
	} else {
		fmt.Fprintf(ios.ErrOut, "No API key was stored in profile %q\n", cfg.Profile())
	}
	if src := keySource(cfg); src == config.SourceEnv || src == config.SourceFlag {
		fmt.Fprintf(ios.ErrOut, "%s a key from the %s is still in use\n", ios.ErrStyles().WarningIcon(), src)
	}
	return nil
}
