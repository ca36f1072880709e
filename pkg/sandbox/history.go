package sandbox

import (
	"strconv"
	"sync"

	"github.com/testctl/testctl/pkg/api"
)

// Generated run history. Each past run is two bytes of attributes drawn
// from (Seed, index) at start-up; the full run is rebuilt from them only
// when a page or a detail needs it. A filtered page therefore scans bytes,
// not runs, and 100,000 runs of history cost 200 kB and a few milliseconds.

// historyKinds are what past runs executed: a fixture plan or a fixed set
// of test case ids, laid out with the outcome that gives. They are built
// on first use: scheduleTestCases lays out the ids' timelines, which every
// testctl start would otherwise pay at package initialisation, `testctl
// version` included.
var historyKinds = sync.OnceValue(func() []run {
	var ks []run
	for _, id := range historyPlans {
		ks = append(ks, run{plan: findPlan(id)})
	}
	for _, ids := range [][]string{{TestCaseOrderEmail}, {TestCaseOrderHistory}, {TestCaseHealthAPI}} {
		ks = append(ks, run{testCaseIDs: ids})
	}
	for i := range ks {
		ks[i].history, ks[i].apps = true, []string{appWebID}
		ks[i].layOut(fixtureByID)
	}
	return ks
})

// historyPlans are the plans past runs ran. Plans added later stay out, so
// that a seed keeps giving the same history.
var historyPlans = []string{PlanPassing, PlanFailing, PlanErroring, PlanCancelled, PlanSkipped, PlanSlow}

// historyWeights are the odds (out of 100) of each of historyKinds, in order:
// mostly passing, a fair share of failures, a few of everything else.
var historyWeights = []int{40, 18, 6, 6, 6, 4, 7, 7, 6}

var historyBranches = []string{"main", "main", "main", "develop", "feature/checkout-v2", "fix/login-timeout", "release/2.4"}

const noBranch = 255

type historyAttr struct {
	kind, branch uint8 // a CODEHOST run has a branch, an API run noBranch
}

// historySpacing is the mean time between two past runs (sandbox seconds).
const historySpacing = 37 * 60

func buildHistory(seed int64, n int) []historyAttr {
	out := make([]historyAttr, n)
	base := hashOf(seed, "history")
	for i := range out {
		h := mix(base + uint64(i))
		pick, kind := int(h%100), 0
		for pick >= historyWeights[kind] {
			pick -= historyWeights[kind]
			kind++
		}
		a := historyAttr{kind: uint8(kind), branch: noBranch}
		if (h>>8)%10 < 6 {
			a.branch = uint8((h >> 16) % uint64(len(historyBranches)))
		}
		out[i] = a
	}
	return out
}

func (a historyAttr) triggerName() string {
	if a.branch != noBranch {
		return api.TriggerCodehost
	}
	return api.TriggerAPI
}

// historyCreated places past run i before the server started, newest
// first; the jitter stays under half the spacing so the order holds.
func (s *Server) historyCreated(i int) float64 {
	j := float64(hashOf(s.opts.Seed, "history-time", strconv.Itoa(i))>>11)/(1<<53) - 0.5
	return -float64(i+1)*historySpacing + j*0.6*historySpacing
}

func (s *Server) historyRun(i int) *run {
	a := s.history[i]
	r := historyKinds()[a.kind] // a copy: the kind's timeline is shared
	r.shortID, r.created, r.trigger = s.encodeRunID('h', i), s.historyCreated(i), a.triggerName()
	if a.branch != noBranch {
		r.branch = historyBranches[a.branch]
		r.commit = hexFor(40, s.opts.Seed, "commit", r.shortID)
	}
	s.assignRunIDs(&r)
	return &r
}

// runFilter holds the filters of GET /v1/run; empty members match all.
type runFilter struct {
	status, result, trigger, branch, plan, commit string
}

func (f runFilter) matchSummary(r *api.RunSummary) bool {
	return (f.status == "" || r.Status == f.status) &&
		(f.result == "" || (r.Result != nil && *r.Result == f.result)) &&
		(f.trigger == "" || r.Trigger == f.trigger) &&
		(f.branch == "" || (r.Branch != nil && *r.Branch == f.branch)) &&
		(f.plan == "" || (r.TestPlanShortID != nil && *r.TestPlanShortID == f.plan)) &&
		(f.commit == "" || (r.CommitHash != nil && *r.CommitHash == f.commit))
}

// matchAttr is matchSummary for a past run, without building it: past runs
// are always in their final state.
func (f runFilter) matchAttr(a historyAttr) bool {
	k := &historyKinds()[a.kind]
	switch {
	case f.status != "" && k.status != f.status,
		f.result != "" && k.result != f.result,
		f.trigger != "" && a.triggerName() != f.trigger,
		f.branch != "" && (a.branch == noBranch || historyBranches[a.branch] != f.branch),
		f.plan != "" && (k.plan == nil || k.plan.ShortID != f.plan):
		return false
	}
	return true
}
