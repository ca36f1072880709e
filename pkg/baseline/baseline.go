// Package baseline finds, for each plan a wait is on, the run its failures
// are compared with (--baseline BRANCH): the most recent run of the same
// plan on BRANCH that ended COMPLETED, with its test cases. The lookup runs
// in the background while the wait goes on, so it adds nothing to the time
// after the runs end. It decides nothing: pkg/verdict classes the failures.
package baseline

import (
	"context"
	"fmt"
	"sync"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/verdict"
)

// The bound of the search, which docs/ci.md states: at most MaxPages pages
// of PageSize runs of the run list per plan, newest first. A plan whose
// last COMPLETED run on the branch is older than that has no baseline.
const (
	MaxPages = 3
	PageSize = 50
)

// Target is a run of the wait: its plan's short id when known (a start
// knows it); otherwise the lookup finds it in the run list.
type Target struct {
	RunShortID  string
	PlanShortID string
}

// Result is what the lookup found: the baseline of each plan, by its short
// id, and the plan of each run whose plan was not known.
type Result struct {
	Baselines map[string]*verdict.Baseline
	PlanOf    map[string]string
}

// Lookup is a search going on in the background.
type Lookup struct {
	done   chan struct{}
	result Result
}

// Start begins the search on ctx (the wait's: it ends with it) and returns
// at once. client should not retry on its own for long: the search is
// bounded by ctx.
func Start(ctx context.Context, client *api.Client, branch string, targets []Target) *Lookup {
	l := &Lookup{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.result = search(ctx, client, branch, targets)
	}()
	return l
}

// Result waits for the search, at most until ctx ends; false when ctx
// ended first (the caller gives each plan a baseline that could not be
// read, and says why).
func (l *Lookup) Result(ctx context.Context) (Result, bool) {
	select {
	case <-l.done:
		return l.result, true
	case <-ctx.Done():
		return Result{}, false
	}
}

// Ready is the search's result once it has ended, without waiting: the
// views of a wait mark a run as its summary will when the search is done.
func (l *Lookup) Ready() (Result, bool) {
	select {
	case <-l.done:
		return l.result, true
	default:
		return Result{}, false
	}
}

func search(ctx context.Context, client *api.Client, branch string, targets []Target) Result {
	res := Result{Baselines: map[string]*verdict.Baseline{}, PlanOf: map[string]string{}}
	own := map[string]bool{}
	var unknown []string
	for _, t := range targets {
		own[t.RunShortID] = true
		if t.PlanShortID == "" && t.RunShortID != "" {
			unknown = append(unknown, t.RunShortID)
		}
	}
	if len(unknown) > 0 {
		findPlans(ctx, client, unknown, res.PlanOf)
	}
	var plans []string
	seen := map[string]bool{}
	for _, t := range targets {
		p := t.PlanShortID
		if p == "" {
			p = res.PlanOf[t.RunShortID]
		}
		if p != "" && !seen[p] {
			seen[p] = true
			plans = append(plans, p)
		}
	}
	// One plan's search does not wait for another's.
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, p := range plans {
		wg.Go(func() {
			b := find(ctx, client, branch, p, own)
			mu.Lock()
			res.Baselines[p] = b
			mu.Unlock()
		})
	}
	wg.Wait()
	return res
}

// find is the baseline of one plan: the newest COMPLETED run of it on
// branch within the bound, with its test cases.
func find(ctx context.Context, client *api.Client, branch, plan string, own map[string]bool) *verdict.Baseline {
	b := &verdict.Baseline{Branch: branch}
	for page := range MaxPages {
		list, err := client.ListRuns(ctx, api.ListRunsOptions{Branch: branch, TestPlanShortID: plan, Limit: PageSize, Offset: page * PageSize})
		if err != nil {
			b.Err = fmt.Errorf("listing the runs of plan %s on %s: %w", plan, branch, err)
			return b
		}
		for _, s := range list.Runs {
			// A run of this wait is never its own baseline (run report on
			// the branch itself).
			if own[s.ShortID] || s.ShortID == "" || !verdict.BaselineCandidate(s, branch, plan) {
				continue
			}
			b.RunShortID, b.RunURL = s.ShortID, s.URL
			d, err := client.GetRun(ctx, s.ShortID, api.GetRunOptions{TestCases: "all"})
			if err != nil {
				b.Err = err
				return b
			}
			b.Cases = d.RunTestCases
			return b
		}
		if len(list.Runs) < PageSize {
			return b // the last page
		}
	}
	return b
}

// findPlans looks the runs whose plan is not known up in the run list's
// first pages (the run detail does not say its plan).
func findPlans(ctx context.Context, client *api.Client, runs []string, planOf map[string]string) {
	want := map[string]bool{}
	for _, r := range runs {
		want[r] = true
	}
	for page := range MaxPages {
		list, err := client.ListRuns(ctx, api.ListRunsOptions{Limit: PageSize, Offset: page * PageSize})
		if err != nil {
			return
		}
		for _, s := range list.Runs {
			if want[s.ShortID] && s.TestPlanShortID != nil {
				planOf[s.ShortID] = *s.TestPlanShortID
				delete(want, s.ShortID)
			}
		}
		if len(want) == 0 || len(list.Runs) < PageSize {
			return
		}
	}
}
