package cmdutil

import (
	"context"

	"github.com/spf13/cobra"
)

// Dispatch is the end of every NewCmdX's RunE: the parsed Options go to the
// test's runF when one was given (a flag-parsing test stops there, nothing is
// sent), else to the command's own run function.
func Dispatch[O any](ctx context.Context, f *Factory, opts *O, runF func(*O) error, run func(context.Context, *Factory, *O) error) error {
	if runF != nil {
		return runF(opts)
	}
	return run(ctx, f, opts)
}

// RunE is the RunE of a NewCmdX whose command line was checked by its
// PreRunE, or needs no check: it only dispatches.
func RunE[O any](f *Factory, opts *O, runF func(*O) error, run func(context.Context, *Factory, *O) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error { return Dispatch(cmd.Context(), f, opts, runF, run) }
}
