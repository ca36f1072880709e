package config

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/output"
)

// PathOptions are the inputs of `config path`.
type PathOptions struct{}

// Location is the JSON shape of `config path`.
type Location struct {
	Path string `json:"path"`
}

// NewCmdPath builds `config path`.
func NewCmdPath(f *cmdutil.Factory, runF func(*PathOptions) error) *cobra.Command {
	opts := &PathOptions{}
	return &cobra.Command{
		Use:   "path",
		Short: "Print the config file's location",
		Example: `  $EDITOR "$(testctl config path)"
  testctl config path -o json --jq .path`,
		Args: cobra.NoArgs,
		RunE: cmdutil.RunE(f, opts, runF, pathRun),
	}
}

func pathRun(_ context.Context, f *cmdutil.Factory, opts *PathOptions) error {
	cfg, out, err := f.ConfigAndOutput()
	if err != nil {
		return err
	}
	path, err := cfg.Location()
	if err != nil {
		return &exitcode.UsageError{Err: err}
	}
	ios := f.IOStreams
	if out.IsStructured() {
		return output.Print(ios.Out, out, Location{Path: path})
	}
	fmt.Fprintln(ios.Out, path)
	return nil
}
