package shared

import (
	"context"

	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// WaitForRuns polls every target until it reaches a final status, the
// --timeout passes or ctx ends (Ctrl-C). Progress goes to stderr; at the end
// stderr gets a summary with the reasons of failures, stdout the data (the
// run detail(s) as JSON/YAML, or a table of test cases), and the --junit and
// GitHub Actions reports are written. The error carries the contract's exit
// code: the largest of the runs' codes, 7 on timeout, 130 on interruption;
// nil when every run passed.
func WaitForRuns(ctx context.Context, f *cmdutil.Factory, o WaitOptions, targets []WaitTarget) error {
	targets = uniqueTargets(targets)
	if len(targets) == 0 {
		return cmdutil.FlagErrorf("no run to wait for: give at least one run short id")
	}
	if err := o.Validate(); err != nil {
		return err
	}
	out, err := f.Output()
	if err != nil {
		return err
	}
	client, err := f.APIClient()
	if err != nil {
		return err
	}
	debug := (f.Globals != nil && f.Globals.Debug) || f.Getenv("TESTCTL_DEBUG") == "1"
	clk := f.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	view := newProgressView(f.IOStreams, debug, len(targets))
	w := newWaiter(o, client, clk, view, targets)
	end, err := w.loop(ctx)
	view.stop()
	if err != nil {
		return err
	}
	return w.finish(f, out, end)
}

// uniqueTargets drops repeated runs, keeping the first (it may carry a URL
// and a creation time).
func uniqueTargets(targets []WaitTarget) []WaitTarget {
	seen := map[string]bool{}
	var out []WaitTarget
	for _, t := range targets {
		if t.ShortID == "" || seen[t.ShortID] {
			continue
		}
		seen[t.ShortID] = true
		out = append(out, t)
	}
	return out
}
