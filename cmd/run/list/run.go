package list

import (
	"context"
	"fmt"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/output"
)

func listRun(ctx context.Context, o *Options) error {
	f := o.Factory
	out, err := f.Output()
	if err != nil {
		return err
	}
	client, err := f.APIClient()
	if err != nil {
		return err
	}
	ios := f.IOStreams
	r := rowFormat{styles: ios.Styles(), relative: ios.IsStdoutTTY(), now: f.Clock.Now()}
	lw := output.NewListWriter(ios, out, "runs", headers(), r.add)

	q := api.ListRunsOptions{Status: o.Status, Result: o.Result, Trigger: o.Trigger, Branch: o.Branch,
		TestPlanShortID: o.Plan, Limit: o.Limit, Offset: o.Offset}
	var meta map[string]any
	var previous map[string]bool
	for {
		page, err := client.ListRuns(ctx, q)
		if err != nil {
			// A streamed JSON document stays unterminated: a consumer
			// must not mistake a partial list for the whole.
			return err
		}
		if err := lw.Add(dropSeen(page.Runs, previous)...); err != nil {
			return err
		}
		if !o.All {
			meta = map[string]any{"total": page.Total, "limit": page.Limit, "offset": page.Offset}
			break
		}
		meta = map[string]any{"total": page.Total}
		q.Offset += len(page.Runs)
		if len(page.Runs) == 0 || q.Offset >= int(page.Total) {
			break
		}
		previous = shortIDs(page.Runs)
	}
	if err := lw.Close(meta); err != nil {
		return err
	}
	if lw.Count() == 0 && !out.IsStructured() {
		fmt.Fprintln(ios.ErrOut, "No runs match.")
	}
	return nil
}

// dropSeen removes runs the previous page already held. The list is newest
// first, so a run started while --all pages through it shifts every later
// run one place down and repeats the last run of a page at the top of the
// next. Only the previous page is remembered, which keeps memory flat.
func dropSeen(runs []api.RunSummary, seen map[string]bool) []api.RunSummary {
	if len(seen) == 0 {
		return runs
	}
	kept := runs[:0:0]
	for _, r := range runs {
		if !seen[r.ShortID] {
			kept = append(kept, r)
		}
	}
	return kept
}

func shortIDs(runs []api.RunSummary) map[string]bool {
	m := make(map[string]bool, len(runs))
	for _, r := range runs {
		m[r.ShortID] = true
	}
	return m
}
