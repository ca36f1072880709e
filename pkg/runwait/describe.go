package runwait

import (
	"cmp"
	"context"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/verdict"
)

// describeTimeout bounds the one extra request a wait makes for its
// reports (after a signal, Finish's afterSignal bounds it more).
const describeTimeout = 10 * time.Second

// namePlans completes what the reports show of each run from its detail:
// its plan, which names a JUnit suite and must be the same every build,
// comes only from what the start answered, the local record of started
// runs (both already in the record) or the run detail when the service
// sends it there; never from a page of the run list, which a busy project
// pushes a run off. Its URL, when the record has none, from the detail.
func namePlans(recs []verdict.Record) {
	for i := range recs {
		r := &recs[i]
		if d := r.Detail; d != nil {
			if r.Plan.Title() == "" && d.TestPlan != nil {
				r.Plan.Name, r.Plan.ShortID = d.TestPlan.Name, d.TestPlan.ShortID
			}
			r.URL = cmp.Or(r.URL, d.URL)
		}
	}
}

// listRuns looks the runs up in the first page of the run list, best
// effort, when lookUp (a report that shows their URL and times was asked
// for): describe gives each record what it lists. It only reads recs, so
// it may go on beside the evidence.
func listRuns(ctx context.Context, c *api.Client, recs []verdict.Record, lookUp bool) (describe func([]verdict.Record)) {
	nothing := func([]verdict.Record) {}
	needList := false
	for _, r := range recs {
		needList = needList || (!r.NotStarted && r.Detail != nil)
	}
	if !needList || !lookUp {
		return nothing
	}
	ctx, cancel := context.WithTimeout(ctx, describeTimeout)
	defer cancel()
	list, err := c.ListRuns(ctx, api.ListRunsOptions{})
	if err != nil {
		return nothing
	}
	byID := make(map[string]api.RunSummary, len(list.Runs))
	for _, s := range list.Runs {
		byID[s.ShortID] = s
	}
	return func(recs []verdict.Record) {
		for i := range recs {
			if s, ok := byID[recs[i].ShortID]; ok {
				r := &recs[i]
				r.URL = cmp.Or(r.URL, s.URL)
				r.StartedAt, r.FinishedAt = api.Time(s.StartedAt), api.Time(s.FinishedAt)
			}
		}
	}
}
