package runwait

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/baseline"
	"github.com/testctl/testctl/pkg/verdict"
)

// baselineWait bounds how long Finish waits for a baseline search still
// going on when the runs have ended (a wait that ended at once, run
// report): a search cut short leaves every failure new, with a warning.
const baselineWait = 10 * time.Second

// startBaseline starts the search of --baseline in the background, on the
// wait's context, so that it goes on while the runs do; nil without
// --baseline.
func startBaseline(ctx context.Context, c *api.Client, o Options, targets []RunTarget) *baseline.Lookup {
	if o.Baseline == "" {
		return nil
	}
	if o.lookup != nil {
		return o.lookup // started with the runs' start (StartBaseline)
	}
	bt := make([]baseline.Target, 0, len(targets))
	for _, t := range targets {
		bt = append(bt, baseline.Target{RunShortID: t.ShortID, PlanShortID: t.Plan.ShortID})
	}
	return baseline.Start(ctx, c.WithRetries(1), o.Baseline, bt)
}

// StartBaseline starts the search of --baseline for the plans of a start
// before the runs are started (run start knows them): the search then
// goes on during the start too, and the wait takes it up. A run just
// started is not COMPLETED, so it is never its own baseline.
func (o *Options) StartBaseline(ctx context.Context, c *api.Client, plans []string) {
	targets := make([]RunTarget, 0, len(plans))
	for _, p := range plans {
		targets = append(targets, RunTarget{Plan: verdict.Plan{ShortID: p}})
	}
	o.lookup = startBaseline(ctx, c, *o, targets)
}

// targetsOf are the runs of records, for a search that starts at the end.
func targetsOf(recs []verdict.Record) []RunTarget {
	var out []RunTarget
	for _, r := range recs {
		if !r.NotStarted && r.ShortID != "" {
			out = append(out, RunTarget{ShortID: r.ShortID, Plan: r.Plan})
		}
	}
	return out
}

// baselineResult is what the search gave the reports: the baselines by
// plan, and the plans it found of runs waited on by id.
type baselineResult struct {
	baselines map[string]*verdict.Baseline
	planOf    map[string]string
}

// baselines waits for the search, at most baselineWait. A search that did
// not end in time gives each plan a baseline that could not be read: every
// failure is new, and the reports say why. It reads recs and changes
// nothing: apply does, once the other reads are done.
func baselines(ctx context.Context, o Options, recs []verdict.Record) baselineResult {
	if o.lookup == nil {
		return baselineResult{}
	}
	ctx, cancel := context.WithTimeout(ctx, baselineWait)
	defer cancel()
	res, ok := o.lookup.Result(ctx)
	if !ok {
		out := map[string]*verdict.Baseline{}
		for _, r := range recs {
			if p := r.Plan.ShortID; p != "" {
				out[p] = &verdict.Baseline{Branch: o.Baseline, Err: errors.New("the search did not end in time")}
			}
		}
		return baselineResult{baselines: out}
	}
	return baselineResult{baselines: res.Baselines, planOf: res.PlanOf}
}

// apply gives the verdict the baselines, and the plans only the search
// found, which pick a run's baseline but never rename it in the reports.
func (b baselineResult) apply(vo *verdict.Options) {
	vo.Baselines, vo.PlanOf = b.baselines, b.planOf
}

// complete finds, once the runs are known, what the search could not:
// the plans of runs neither the wait nor their detail named, when a
// baseline or a quarantine entry with a plan needs them (from the run
// list, read once for both), and the baseline of each plan a detail named
// that the search did not know when it began (run wait ID). Within
// baselineWait.
func (b *baselineResult) complete(ctx context.Context, c *api.Client, o Options, recs []verdict.Record) {
	needPlans := o.Baseline != "" || slices.ContainsFunc(o.Quarantine, func(q verdict.Quarantine) bool { return q.Plan != "" })
	if !needPlans {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, baselineWait)
	defer cancel()
	var unknown, own []string
	for _, r := range recs {
		if r.NotStarted || r.ShortID == "" {
			continue
		}
		own = append(own, r.ShortID)
		if r.Plan.ShortID == "" && r.Plan.Name == "" && b.planOf[r.ShortID] == "" {
			unknown = append(unknown, r.ShortID)
		}
	}
	if b.planOf == nil {
		b.planOf = map[string]string{}
	}
	maps.Copy(b.planOf, baseline.Plans(ctx, c, unknown))
	if o.Baseline == "" {
		return
	}
	var plans []string
	for _, r := range recs {
		p := cmp.Or(r.Plan.ShortID, b.planOf[r.ShortID])
		if p != "" && b.baselines[p] == nil && !slices.Contains(plans, p) && !r.NotStarted {
			plans = append(plans, p)
		}
	}
	if len(plans) == 0 {
		return
	}
	if b.baselines == nil {
		b.baselines = map[string]*verdict.Baseline{}
	}
	maps.Copy(b.baselines, baseline.Of(ctx, c, o.Baseline, plans, own))
}
