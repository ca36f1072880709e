package auth

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/keyring"
)

// LogoutOptions are the inputs of `auth logout`.
type LogoutOptions struct{}

// NewCmdLogout builds `auth logout`.
func NewCmdLogout(f *cmdutil.Factory, runF func(*LogoutOptions) error) *cobra.Command {
	opts := &LogoutOptions{}
	return &cobra.Command{
		Use:     "logout",
		Short:   "Remove the stored API key from the OS keyring and the config file",
		Example: `  testctl auth logout --profile staging`,
		Args:    cobra.NoArgs,
		RunE:    cmdutil.RunE(f, opts, runF, logoutRun),
	}
}

func logoutRun(ctx context.Context, f *cmdutil.Factory, opts *LogoutOptions) error {
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	// The file first: a keyring that fails still leaves no key there.
	inFile, err := cfg.Unset(ctx, config.KeyAPIKey)
	if err != nil {
		return err
	}
	inKeyring, kerr := cfg.RemoveKeyFromKeyring()
	if errors.Is(kerr, keyring.ErrNoSession) {
		kerr = nil // no keyring here, so no key in it
	}
	ios := f.IOStreams
	if inFile {
		fmt.Fprintf(ios.ErrOut, "%s Removed the API key from profile %q of the config file %s\n", ios.ErrStyles().SuccessIcon(), cfg.Profile(), cfg.Path())
	}
	if inKeyring {
		fmt.Fprintf(ios.ErrOut, "%s Removed the API key from the OS keyring (%s)\n", ios.ErrStyles().SuccessIcon(), cfg.KeyringEntry())
	}
	if !inFile && !inKeyring && kerr == nil {
		fmt.Fprintf(ios.ErrOut, "No API key was stored for profile %q\n", cfg.Profile())
	}
	if kerr != nil {
		return kerr
	}
	if _, src := cfg.GetWithSource(config.KeyAPIKey); src == config.SourceEnv || src == config.SourceFlag {
		fmt.Fprintf(ios.ErrOut, "%s a key from the %s is still in use\n", ios.ErrStyles().WarningIcon(), src)
	}
	return nil
}
