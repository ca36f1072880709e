// Package version implements `testctl version`.
package version

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/build"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// Options are the inputs of `version`.
type Options struct {
	JSON bool
}

// NewCmdVersion builds `testctl version`. It reads no config: it must work,
// and fast, on a machine where nothing is set up.
func NewCmdVersion(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and build date",
		Example: "  testctl version\n  testctl version -o json",
		Args:    cobra.NoArgs,
		PreRun: func(cmd *cobra.Command, _ []string) {
			if o := cmd.Flags().Lookup("output"); o != nil && o.Value.String() == "json" {
				opts.JSON = true
			}
		},
		RunE: cmdutil.RunE(f, opts, runF, run),
	}
}

func run(_ context.Context, f *cmdutil.Factory, opts *Options) error {
	info := build.Current()
	out := f.IOStreams.Out
	if opts.JSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(info)
	}
	fmt.Fprintf(out, "testctl %s", info.Version)
	if info.Commit != "" || info.Date != "" {
		fmt.Fprintf(out, " (commit %s, built %s)", cmp.Or(info.Commit, "unknown"), cmp.Or(info.Date, "unknown"))
	}
	fmt.Fprintf(out, " %s/%s\n", runtime.GOOS, runtime.GOARCH)
	return nil
}
