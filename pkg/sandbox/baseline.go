package sandbox

import (
	"sync"

	"github.com/testctl/testctl/pkg/api"
)

// The runs of PlanBaseline on main, before the server started, newest
// first: the baseline of `--baseline main`. In the newest, "Apply an
// expired coupon" fails as it does in every run of the plan (a known
// failure) and "Pay with a declined card" passes (so its failure in a new
// run is new); the older one passed whole. They sit between the runs
// started here and the generated history, which keeps its ids and order
// for a seed.

// baselineBranch is the branch the baseline runs ran on.
const baselineBranch = "main"

// baselineAges are how long before the server started each baseline run
// was created (sandbox seconds), newest first: both before the first
// generated past run.
var baselineAges = []float64{10 * 60, 25 * 60}

// baselineKinds are the baseline runs, laid out once.
var baselineKinds = sync.OnceValue(func() []run {
	p := findPlan(PlanBaseline)
	newest := &plan{ShortID: p.ShortID, Name: p.Name}
	for _, c := range p.Cases {
		if c.tc.ID == TestCaseDeclinedCard {
			c = passed(TestCaseDeclinedCard, c.start, c.end)
		}
		newest.Cases = append(newest.Cases, c)
	}
	older := &plan{ShortID: p.ShortID, Name: p.Name}
	for _, c := range p.Cases {
		older.Cases = append(older.Cases, passed(c.tc.ID, c.start, c.end))
	}
	ks := []run{{plan: newest}, {plan: older}}
	for i := range ks {
		ks[i].history, ks[i].apps = true, []string{appWebID}
		ks[i].layOut(fixtureByID)
	}
	return ks
})

// baselineRun is baseline run i (0 the newest).
func (s *Server) baselineRun(i int) *run {
	r := baselineKinds()[i] // a copy
	r.shortID, r.created, r.trigger, r.branch = s.encodeRunID('b', i), -baselineAges[i], api.TriggerCodehost, baselineBranch
	r.commit = hexFor(40, s.opts.Seed, "commit", r.shortID)
	s.assignRunIDs(&r)
	return &r
}

// baselineRuns is how many baseline runs the sandbox has: none without
// Options.BaselineHistory.
func (s *Server) baselineRuns() int {
	if !s.opts.BaselineHistory {
		return 0
	}
	return len(baselineAges)
}
