package shared

import (
	"context"
	"errors"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// WaitForRuns polls every target until it ends or the wait times out, prints
// progress to stderr and the final detail(s) to stdout, and returns an error
// carrying the contract's exit code (nil when every run passed).
func WaitForRuns(ctx context.Context, f *cmdutil.Factory, o WaitOptions, targets []WaitTarget) error {
	return errors.New("run wait: not implemented yet")
}
