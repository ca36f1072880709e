package list

import (
	"context"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/paginate"
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
	q := api.ListRunsOptions{Status: o.Status, Result: o.Result, Trigger: o.Trigger, Branch: o.Branch, TestPlanShortID: o.Plan}
	runs := paginate.List[api.RunSummary]{
		Key: "runs", Noun: "runs", Headers: headers(), Row: r.add,
		ID: func(r api.RunSummary) string { return r.ShortID },
		Fetch: func(ctx context.Context, limit, offset int) (*paginate.Page[api.RunSummary], error) {
			q := q
			q.Limit, q.Offset = limit, offset
			page, err := client.ListRuns(ctx, q)
			if err != nil {
				return nil, err
			}
			return &paginate.Page[api.RunSummary]{Items: page.Runs, Total: int(page.Total), Doc: page}, nil
		},
	}
	return runs.Run(ctx, ios, out, o.Flags)
}
