// Package baseline finds, for each plan a wait is on, the run its failures
// are compared with (--baseline BRANCH): the most recent run of the same
// plan on BRANCH that ended COMPLETED, with its test cases. The lookup runs
// in the background while the wait goes on, so it adds nothing to the time
// after the runs end. It decides nothing: pkg/verdict classes the failures.
package baseline

import (
	"context"
	"fmt"
	"strings"
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
	res.Baselines = findAll(ctx, client, branch, plans, own)
	return res
}

// findAll is the baseline of each plan; one plan's search does not wait
// for another's.
func findAll(ctx context.Context, client *api.Client, branch string, plans []string, own map[string]bool) map[string]*verdict.Baseline {
	out := map[string]*verdict.Baseline{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, p := range plans {
		wg.Go(func() {
			b := find(ctx, client, branch, p, own)
			mu.Lock()
			out[p] = b
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// MaxDetailReads bounds how many candidates' details the search reads: a
// run the list calls COMPLETED whose detail says otherwise is no baseline,
// and the next candidate is read instead.
const MaxDetailReads = 5

// find is the baseline of one plan: the newest run of it on branch within
// the bound whose detail says COMPLETED with a result, with its test cases.
// The run list alone is not enough: it may call a run COMPLETED that its
// detail shows still RUNNING, whose test cases did not pass yet.
func find(ctx context.Context, client *api.Client, branch, plan string, own map[string]bool) *verdict.Baseline {
	b := &verdict.Baseline{Branch: branch}
	var unfinished []string
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
			if len(unfinished) == MaxDetailReads {
				return notCompleted(b, unfinished)
			}
			d, err := client.GetRun(ctx, s.ShortID, api.GetRunOptions{TestCases: "all"})
			if err != nil {
				b.RunShortID, b.RunURL, b.Err = s.ShortID, s.URL, err
				return b
			}
			if !verdict.BaselineDetail(d) {
				unfinished = append(unfinished, s.ShortID)
				continue
			}
			b.RunShortID, b.RunURL, b.Cases = s.ShortID, s.URL, d.RunTestCases
			return b
		}
		if len(list.Runs) < PageSize {
			break // the last page
		}
	}
	if len(unfinished) > 0 {
		return notCompleted(b, unfinished)
	}
	return b
}

// notCompleted is no baseline, saying why: the runs the list called
// COMPLETED had not ended with a result by their detail.
func notCompleted(b *verdict.Baseline, runs []string) *verdict.Baseline {
	b.Err = fmt.Errorf("the run list calls %s COMPLETED, but no detail read says COMPLETED with a result", strings.Join(runs, ", "))
	return b
}

// Plans finds the plans of runs the wait knew none of (nor did their
// detail) in the run list's first pages, within the search's bound: the
// one identity of their plan, which the baseline and the quarantine
// entries with a plan both read.
func Plans(ctx context.Context, client *api.Client, runs []string) map[string]string {
	planOf := map[string]string{}
	if len(runs) > 0 {
		findPlans(ctx, client, runs, planOf)
	}
	return planOf
}

// Of finds the baselines of plans the search did not know when it began
// (a run waited on by id whose detail names its plan), as Start does.
func Of(ctx context.Context, client *api.Client, branch string, plans, own []string) map[string]*verdict.Baseline {
	isOwn := map[string]bool{}
	for _, r := range own {
		isOwn[r] = true
	}
	return findAll(ctx, client, branch, plans, isOwn)
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
