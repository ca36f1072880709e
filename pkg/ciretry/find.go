package ciretry

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/reconcile"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// pageSize and maxPages bound the run list read for one plan: the runs of
// one commit since the first attempt are few, and a list that will not
// end does not hold up the start.
const (
	pageSize = 100
	maxPages = 5
)

// maxChain bounds the run details read to rebuild the earlier attempts'
// chain (a run and its reruns): more runs than that are not one chain.
const maxChain = 6

// Decision is what the retry does for one start.
type Decision struct {
	// Action is verdict.CIReused, CIRerunFailed, CIWaited or CINew.
	Action string
	// Why is, for CINew, why nothing was taken up ("" when the job may not
	// be a retry and no run says it is: nothing to say).
	Why string
	// Chain are the earlier attempts' runs of the plan, oldest first, each
	// with the detail read: the run, then the reruns of its failures. The
	// last is the one taken up.
	Chain []verdict.Attempt
	// Attempt is the CI attempt that started the last run of Chain.
	Attempt int // the CI attempt that started the last run of Chain, 0 unknown
}

// Last is the chain's last run, the one taken up.
func (d Decision) Last() verdict.Attempt { return d.Chain[len(d.Chain)-1] }

// CIRetry is the decision as the reports say it, for a target whose
// earlier attempts are inherited of them.
func (d Decision) CIRetry(inherited int) *verdict.CIRetry {
	ci := &verdict.CIRetry{Action: d.Action, Why: d.Why, Attempt: d.Attempt, Inherited: inherited}
	if len(d.Chain) > 0 {
		ci.Run = d.Last().ShortID
	}
	return ci
}

// Decide finds the run the earlier attempts started for req and says what
// to do with it. An error reading the service is a decision too: start
// anew, saying why.
func (j *Job) Decide(ctx context.Context, c *api.Client, req api.StartRunRequest) Decision {
	what := describe(req)
	if j.Unknown != "" {
		return Decision{Action: verdict.CINew, Why: j.Unknown}
	}
	if j.Maybe && reconcile.RunLikeStart(req).Unshown != "" {
		// Only a run found says a GitLab job is a retry, and the run list
		// cannot tell this job's earlier run from another job's of the
		// same plan and commit with another URL, environment or device:
		// taking that up would be a verdict about something else.
		return Decision{Action: verdict.CINew}
	}
	runs, err := j.candidates(ctx, c, req)
	if err != nil {
		return Decision{Action: verdict.CINew, Why: "the runs of " + what + " could not be listed (" + firstLine(err.Error()) + ")"}
	}
	if len(runs) == 0 {
		if j.Maybe {
			return Decision{Action: verdict.CINew}
		}
		return Decision{Action: verdict.CINew, Why: fmt.Sprintf("no run of %s on this commit %s", what, j.since())}
	}
	if len(runs) > maxChain {
		return Decision{Action: verdict.CINew, Why: fmt.Sprintf("%d runs of %s on this commit %s (matrix jobs?)", len(runs), what, j.since())}
	}
	chain := make([]verdict.Attempt, 0, len(runs))
	for _, s := range runs {
		d, err := c.GetRun(ctx, s.ShortID, api.GetRunOptions{TestCases: "all"})
		if err != nil {
			return Decision{Action: verdict.CINew, Why: "run " + termtext.SanitizeLine(s.ShortID) + " could not be read (" + firstLine(err.Error()) + ")"}
		}
		chain = append(chain, verdict.Attempt{ShortID: s.ShortID, URL: s.URL, Detail: d})
	}
	if !isChain(chain, runs) {
		return Decision{Action: verdict.CINew, Why: fmt.Sprintf("%s of %s on this commit %s (matrix jobs?)",
			termtext.Plural(len(chain), "run"), what, j.since())}
	}
	last := chain[len(chain)-1]
	dec := Decision{Chain: chain, Attempt: j.AttemptOf(api.Time(&runs[len(runs)-1].CreatedAt))}
	if dec.Action = verdict.TakeUp(last.Detail); dec.Action == verdict.CINew {
		return Decision{Action: verdict.CINew, Why: fmt.Sprintf("run %s of %s %s ended %s", termtext.SanitizeLine(last.ShortID), what,
			startedBy(dec.Attempt), termtext.SanitizeLine(last.Detail.Status))}
	}
	return dec
}

// startedBy names the attempt that started a run: "(attempt 1)".
func startedBy(attempt int) string {
	if attempt == 0 {
		return "(an earlier attempt)"
	}
	return fmt.Sprintf("(attempt %d)", attempt)
}

// candidates are the runs of req's plan (or of a run of as many test case
// ids), trigger, branch, commit and applications, as the run list shows
// them, created between the first attempt's start and this one's, oldest
// first. A field the list leaves out is no match: a run taken up wrongly
// would be a verdict about something else.
func (j *Job) candidates(ctx context.Context, c *api.Client, req api.StartRunRequest) ([]api.RunSummary, error) {
	trigger := cmp.Or(req.Trigger, api.TriggerAPI)
	opts := api.ListRunsOptions{TestPlanShortID: req.TestPlanShortID, Trigger: trigger, Branch: req.Branch,
		CommitHash: req.CommitHash, Limit: pageSize}
	var out []api.RunSummary
	for page := 0; page < maxPages; page++ {
		opts.Offset = page * pageSize
		list, err := c.ListRuns(ctx, opts)
		if err != nil {
			return nil, err
		}
		older := false
		for _, s := range list.Runs {
			created := api.Time(&s.CreatedAt)
			if !created.IsZero() && created.Before(j.Since) {
				older = true
				continue
			}
			if created.IsZero() || !created.Before(j.Until) || !matches(req, trigger, s) {
				continue
			}
			out = append(out, s)
		}
		if older || len(list.Runs) < pageSize {
			break
		}
	}
	slices.SortStableFunc(out, func(a, b api.RunSummary) int {
		return api.Time(&a.CreatedAt).Compare(api.Time(&b.CreatedAt))
	})
	// A run of test case ids is known by its size: the first of a chain
	// ran them all, its reruns fewer.
	if tests := reconcile.RunLikeStart(req).Tests; tests > 0 {
		for len(out) > 0 && out[0].TotalCount != tests {
			out = out[1:]
		}
	}
	return out, nil
}

// matches says whether the run list shows s as a run req started.
func matches(req api.StartRunRequest, trigger string, s api.RunSummary) bool {
	shown := func(got *string, want string) bool { return got != nil && *got == want }
	plan := s.TestPlanShortID
	if req.TestPlanShortID == "" && (plan == nil || *plan == "") {
		plan = new("") // a run of test case ids shows no plan
	}
	if !shown(plan, req.TestPlanShortID) || s.Trigger != trigger || !shown(s.Branch, req.Branch) || !shown(s.CommitHash, req.CommitHash) {
		return false
	}
	apps := slices.Clone(reconcile.RunLikeStart(req).Apps) // the applications named, once each
	if len(apps) == 0 {
		return true
	}
	got := slices.Clone(s.ApplicationShortIDs)
	slices.Sort(apps)
	slices.Sort(got)
	return slices.Equal(apps, slices.Compact(got))
}

// isChain reports whether the runs, oldest first, are one run and the
// reruns of its failures, as --retry-failed leaves them: each after the
// first created once the one before had finished, and a rerun of it
// (verdict.Reran). Matrix jobs' runs of the plan start together: none was
// created after another finished.
func isChain(runs []verdict.Attempt, listed []api.RunSummary) bool {
	for i := 1; i < len(runs); i++ {
		ended, created := api.Time(listed[i-1].FinishedAt), api.Time(&listed[i].CreatedAt)
		if ended.IsZero() || created.Before(ended) || !verdict.Reran(runs[i-1].Detail, runs[i].Detail) {
			return false
		}
	}
	return true
}

// describe names what req starts: "pln-checkout", "the test cases".
func describe(req api.StartRunRequest) string {
	if req.TestPlanShortID != "" {
		return termtext.SanitizeLine(req.TestPlanShortID)
	}
	return "these test cases"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return termtext.SanitizeLine(line)
}
