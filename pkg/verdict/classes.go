package verdict

import (
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// Failure is what a test case that did not pass means for the gate, against
// the baseline branch (--baseline) and the quarantine file (--quarantine).
type Failure string

const (
	// New: it passed in the baseline run, or was not in it, or no baseline
	// run was found or could be read.
	New Failure = "new"
	// Known: it was in the baseline run and did not pass there either.
	Known Failure = "known"
	// Quarantined: an entry of the quarantine file names it, until a date
	// not yet past.
	Quarantined Failure = "quarantined"
)

// FailOn is --fail-on: which failures fail the gate.
type FailOn string

const (
	// FailOnAny (the default): every failure but a quarantined one.
	FailOnAny FailOn = "any"
	// FailOnNew: only new failures, and those whose quarantine expired.
	FailOnNew FailOn = "new"
)

// Baseline is the run of a plan on the baseline branch its failures are
// compared with. RunShortID is "" when no run was found; Err says why a run
// that was found could not be read. Either way every failure is new.
type Baseline struct {
	Branch     string
	RunShortID string
	// RunURL is the baseline run's address, when the run list gave one.
	RunURL string
	Cases  []api.RunTestCase
	Err    error
}

// Found reports whether the baseline run was found and read.
func (b *Baseline) Found() bool { return b != nil && b.RunShortID != "" && b.Err == nil }

// Quarantine is one entry of the quarantine file.
type Quarantine struct {
	Name string // the test case's name, matched exactly
	// Plan, when given, limits the entry to runs of that plan (its short id
	// or its name).
	Plan          string
	Reason, Owner string
	// Until is the last day the entry holds (UTC); after it the test
	// case's failures fail the gate again.
	Until time.Time
	// Line is the entry's line in the file, for the warnings that name it.
	Line int
}

// Expired reports whether the entry's last day is before today's (UTC).
func (q Quarantine) Expired(now time.Time) bool {
	y, m, d := now.UTC().Date()
	return q.Until.Before(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
}

// matches reports whether the entry names the test case of a run of plan.
func (q Quarantine) matches(name string, plan Plan) bool {
	return q.Name == name && (q.Plan == "" || q.Plan == plan.ShortID || q.Plan == plan.Name)
}

// FailureCounts tally the test cases that did not pass by their class;
// Expired counts those of them whose quarantine has expired (each is also
// new or known).
type FailureCounts struct {
	New, Known, Quarantined, Expired int
}

func (n *FailureCounts) add(o FailureCounts) {
	n.New += o.New
	n.Known += o.Known
	n.Quarantined += o.Quarantined
	n.Expired += o.Expired
}

// String is the classes in words, as the headlines give them: "1 new
// failure · 2 known · 1 quarantined · 1 quarantine expired".
func (n FailureCounts) String() string {
	word := "new failures"
	if n.New == 1 {
		word = "new failure"
	}
	expired := "quarantines expired"
	if n.Expired == 1 {
		expired = "quarantine expired"
	}
	return JoinCounts("no failures", []int{n.New, n.Known, n.Quarantined, n.Expired}, word, "known", "quarantined", expired)
}

// classifyFailures gives each test case of the run that did not pass its
// class and says whether it fails the gate, and returns the quarantine
// entries it matched (by index).
func classifyFailures(run *Run, o Options) map[int]bool {
	used := map[int]bool{}
	base := run.Baseline
	// Test cases of the same name are matched one to one: for each name,
	// as many of today's failures are known, in run order, as the
	// baseline run has test cases of that name that did not pass.
	var known map[string]int
	if base.Found() {
		known = notPassedByName(base.Cases)
	}
	plan := o.planOf(run.Record)
	planKnown := plan.ShortID != "" || plan.Name != ""
	for i := range run.Cases {
		c := &run.Cases[i]
		for k, q := range o.Quarantine {
			if q.Plan != "" && !planKnown && q.Name == c.Name {
				// The run's plan is not known: the entry is neither
				// applied nor called unmatched; Decide says so.
				used[k] = true
				run.unplaced = append(run.unplaced, k)
				continue
			}
			if q.matches(c.Name, plan) {
				used[k] = true
				if c.Quarantine == nil {
					c.Quarantine = &o.Quarantine[k]
				}
			}
		}
		if !c.Class.DidNotPass() {
			continue
		}
		c.Failure = New
		if known[c.Name] > 0 {
			known[c.Name]--
			c.Failure = Known
		}
		c.QuarantineExpired = c.Quarantine != nil && c.Quarantine.Expired(o.Now)
		if c.Quarantine != nil && !c.QuarantineExpired {
			c.Failure = Quarantined
		}
		switch {
		case c.Failure == New, c.QuarantineExpired:
			c.FailsGate = true
		case c.Failure == Known:
			c.FailsGate = o.FailOn != FailOnNew
		}
		switch c.Failure {
		case New:
			run.Failures.New++
		case Known:
			run.Failures.Known++
		case Quarantined:
			run.Failures.Quarantined++
		}
		if c.QuarantineExpired {
			run.Failures.Expired++
		}
	}
	return used
}

// notPassedByName counts the baseline run's test cases that did not pass
// by name: the rule docs/ci.md states (matched by name within the plan,
// since run test case ids differ between runs; a test case skipped there
// did not pass either).
func notPassedByName(base []api.RunTestCase) map[string]int {
	n := map[string]int{}
	for _, tc := range base {
		if ClassOf(tc, true) != Passed {
			n[tc.Name]++
		}
	}
	return n
}

// Gating counts the run's test cases that did not pass and fail the gate.
func (r Run) Gating() int {
	n := 0
	for _, c := range r.Cases {
		if c.FailsGate {
			n++
		}
	}
	return n
}

// ByFailure are the run's test cases that did not pass in the order the
// summary lists them: new failures first (those whose quarantine expired
// among them), then known, then quarantined; failures before errors within
// each.
func (r Run) ByFailure() []Case {
	var out []Case
	for _, f := range []Failure{New, Known, Quarantined} {
		for _, c := range r.DidNotPass() {
			if c.Failure == f {
				out = append(out, c)
			}
		}
	}
	return out
}

// BaselineCandidate reports whether a run of the run list can be the
// baseline of a plan on a branch: a run of that plan, on that branch, that
// ended COMPLETED (whatever its result: its test cases say what failed).
// The list's filters are not published, so every listed run is checked.
func BaselineCandidate(s api.RunSummary, branch, plan string) bool {
	return s.Status == api.StatusCompleted && s.Branch != nil && *s.Branch == branch &&
		s.TestPlanShortID != nil && *s.TestPlanShortID == plan
}

// BaselineDetail reports whether a run's detail can be a baseline: it
// ended COMPLETED with a result. The run list may call a run COMPLETED that
// its detail shows still going on, whose test cases did not pass yet.
func BaselineDetail(d *api.RunDetail) bool {
	return d != nil && d.Status == api.StatusCompleted && d.ResultOrEmpty() != ""
}
