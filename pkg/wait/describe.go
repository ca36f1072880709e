package wait

import (
	"context"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// describeTimeout bounds the one extra request a wait makes for its
// reports, also after Ctrl-C, when the wait's own context has ended.
const describeTimeout = 10 * time.Second

// describeRuns fills in what a run detail does not carry (the run's URL,
// its plan, when it started and finished) from the first page of the run
// list, whose items do. What is already known (from the start answer or
// the local record) is kept; a failed request leaves the records as they
// are: the reports are written with what there is.
func describeRuns(ctx context.Context, c *api.Client, recs []Record) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), describeTimeout)
	defer cancel()
	list, err := c.ListRuns(ctx, api.ListRunsOptions{})
	if err != nil {
		return
	}
	byID := make(map[string]api.RunSummary, len(list.Runs))
	for _, s := range list.Runs {
		byID[s.ShortID] = s
	}
	for i := range recs {
		s, ok := byID[recs[i].ShortID]
		if !ok {
			continue
		}
		r := &recs[i]
		if r.URL == "" {
			r.URL = s.URL
		}
		if r.Plan.ShortID == "" && s.TestPlanShortID != nil {
			r.Plan.ShortID = *s.TestPlanShortID
		}
		if r.Plan.Title() == "" && s.TestPlanShortID == nil {
			r.Plan.TestCases = true // a run without a plan ran test case ids
		}
		r.StartedAt, r.FinishedAt = serviceTime(s.StartedAt), serviceTime(s.FinishedAt)
	}
}

// serviceTime reads one of the service's timestamps; zero when absent or
// unreadable (a report then has no time rather than a wrong one).
func serviceTime(s *string) time.Time {
	if s == nil {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return time.Time{}
	}
	return t
}
