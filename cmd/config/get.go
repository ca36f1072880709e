package config

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// GetOptions are the inputs of `config get`.
type GetOptions struct {
	Key string
}

// NewCmdGet builds `config get KEY`.
func NewCmdGet(f *cmdutil.Factory, runF func(*GetOptions) error) *cobra.Command {
	opts := &GetOptions{}
	return &cobra.Command{
		Use:   "get KEY",
		Short: "Print a setting's effective value",
		Long:  "Print the value a command would use, after flags, environment and profile. api_key is shown masked.",
		Example: `  testctl config get base_url
  TESTCTL_PROFILE=staging testctl config get project`,
		Args:              cmdutil.ExactArgs(1, "a key", "testctl config get base_url"),
		ValidArgsFunction: completeKeys,
		PreRunE: func(_ *cobra.Command, args []string) error {
			opts.Key = args[0]
			return checkKey(opts.Key)
		},
		RunE: cmdutil.RunE(f, opts, runF, getRun),
	}
}

func getRun(_ context.Context, f *cmdutil.Factory, opts *GetOptions) error {
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	value, src, err := valueOf(cfg, opts.Key)
	if err != nil {
		return err
	}
	ios := f.IOStreams
	fmt.Fprintln(ios.Out, display(opts.Key, value))
	if ios.IsStderrTTY() {
		fmt.Fprintf(ios.ErrOut, "%s\n", ios.ErrStyles().Muted(fmt.Sprintf("(from %s)", src)))
	}
	return nil
}
