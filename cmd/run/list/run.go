package list

import (
	"context"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/paginate"
)

func listRun(ctx context.Context, f *cmdutil.Factory, o *Options) error {
	out, client, err := f.OutputAndClient()
	if err != nil {
		return err
	}
	ios := f.IOStreams
	query := func(limit, offset int) api.ListRunsOptions {
		return api.ListRunsOptions{Status: o.Status, Result: o.Result, Trigger: o.Trigger, Branch: o.Branch,
			TestPlanShortID: o.Plan, CommitHash: o.Commit, Limit: limit, Offset: offset}
	}
	r := rowFormat{styles: ios.Styles(), relative: ios.IsStdoutTTY(), now: f.Clock.Now()}
	runs := paginate.List[api.RunSummary]{
		Key: "runs", Noun: "runs", Headers: headers(), Row: r.add,
		ID: func(r api.RunSummary) string { return r.ShortID },
		Fetch: func(ctx context.Context, limit, offset int) (*paginate.Page[api.RunSummary], error) {
			page, err := client.ListRuns(ctx, query(limit, offset))
			if err != nil {
				return nil, err
			}
			return &paginate.Page[api.RunSummary]{Items: page.Runs, Total: int(page.Total), Doc: page}, nil
		},
		Raw: func(ctx context.Context, limit, offset int) (*api.RawList, error) {
			return client.ListRunsRaw(ctx, query(limit, offset))
		},
	}
	return runs.Run(ctx, ios, out, o.Flags)
}
