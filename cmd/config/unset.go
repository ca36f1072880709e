package config

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// UnsetOptions are the inputs of `config unset`.
type UnsetOptions struct {
	Key string
}

// NewCmdUnset builds `config unset KEY`.
func NewCmdUnset(f *cmdutil.Factory, runF func(*UnsetOptions) error) *cobra.Command {
	opts := &UnsetOptions{}
	return &cobra.Command{
		Use:               "unset KEY",
		Short:             "Remove a setting from the active profile",
		Example:           `  testctl config unset project --profile staging`,
		Args:              cmdutil.ExactArgs(1, "a key", "testctl config unset project"),
		ValidArgsFunction: completeKeys,
		PreRunE: func(_ *cobra.Command, args []string) error {
			opts.Key = args[0]
			return checkKey(opts.Key)
		},
		RunE: cmdutil.RunE(f, opts, runF, unsetRun),
	}
}

func unsetRun(ctx context.Context, f *cmdutil.Factory, opts *UnsetOptions) error {
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	removed, err := cfg.Unset(ctx, opts.Key)
	if err != nil {
		return err
	}
	ios := f.IOStreams
	if !removed {
		fmt.Fprintf(ios.ErrOut, "%s was not set in %s\n", opts.Key, profileNote(cfg))
		return nil
	}
	fmt.Fprintf(ios.ErrOut, "%s Removed %s (%s)\n", ios.ErrStyles().SuccessIcon(), opts.Key, profileNote(cfg))
	return nil
}
