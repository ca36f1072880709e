package verdict

import (
	"errors"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

var today = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// A run of plan p with Login failing, Pay failing and Search passing,
// against a baseline where Pay failed too.
func classesRecord() Record {
	return Record{ShortID: "r2", Plan: Plan{ShortID: "p", Name: "Checkout"}, Detail: completed("r2", api.ResultFailed,
		tc("1", "Login", api.StatusCompleted, api.ResultFailed),
		tc("2", "Pay", api.StatusCompleted, api.ResultFailed),
		tc("3", "Search", api.StatusCompleted, api.ResultPassed))}
}

func baselineOf(cases ...api.RunTestCase) map[string]*Baseline {
	return map[string]*Baseline{"p": {Branch: "main", RunShortID: "r1", Cases: cases}}
}

func classesOf(r Run) map[string]Failure {
	out := map[string]Failure{}
	for _, c := range r.Cases {
		out[c.Name] = c.Failure
	}
	return out
}

func TestFailureClasses(t *testing.T) {
	base := baselineOf(tc("b1", "Login", api.StatusCompleted, api.ResultPassed), tc("b2", "Pay", api.StatusCompleted, api.ResultFailed))
	for _, c := range []struct {
		name    string
		o       Options
		classes map[string]Failure
		counts  FailureCounts
		code    int
	}{
		{"no baseline asked: every failure new", Options{}, map[string]Failure{"Login": New, "Pay": New, "Search": ""},
			FailureCounts{New: 2}, exitcode.Failed},
		{"baseline: Pay failed there too", Options{BaselineBranch: "main", Baselines: base},
			map[string]Failure{"Login": New, "Pay": Known, "Search": ""}, FailureCounts{New: 1, Known: 1}, exitcode.Failed},
		{"--fail-on new: Login is still new", Options{BaselineBranch: "main", Baselines: base, FailOn: FailOnNew},
			map[string]Failure{"Login": New, "Pay": Known}, FailureCounts{New: 1, Known: 1}, exitcode.Failed},
		{"--fail-on new, Login quarantined: nothing new", Options{BaselineBranch: "main", Baselines: base, FailOn: FailOnNew,
			Quarantine: []Quarantine{{Name: "Login", Until: day("2026-12-01")}}, Now: today},
			map[string]Failure{"Login": Quarantined, "Pay": Known}, FailureCounts{Known: 1, Quarantined: 1}, exitcode.OK},
		{"--fail-on any: the known failure fails the gate", Options{BaselineBranch: "main", Baselines: base,
			Quarantine: []Quarantine{{Name: "Login", Until: day("2026-12-01")}}, Now: today},
			map[string]Failure{"Login": Quarantined, "Pay": Known}, FailureCounts{Known: 1, Quarantined: 1}, exitcode.Failed},
		{"both quarantined, --fail-on any", Options{Quarantine: []Quarantine{{Name: "Login", Until: day("2026-11-27")},
			{Name: "Pay", Plan: "Checkout", Until: day("2027-01-01")}}, Now: today},
			map[string]Failure{"Login": Quarantined, "Pay": Quarantined}, FailureCounts{Quarantined: 2}, exitcode.OK},
		{"quarantine expired yesterday: fails again", Options{Quarantine: []Quarantine{{Name: "Login", Until: day("2026-11-26")},
			{Name: "Pay", Until: day("2027-01-01")}}, Now: today},
			map[string]Failure{"Login": New, "Pay": Quarantined}, FailureCounts{New: 1, Quarantined: 1, Expired: 1}, exitcode.Failed},
		{"expired on a known failure, --fail-on new: fails", Options{BaselineBranch: "main", Baselines: base, FailOn: FailOnNew,
			Quarantine: []Quarantine{{Name: "Login", Until: day("2027-01-01")}, {Name: "Pay", Until: day("2026-01-01")}}, Now: today},
			map[string]Failure{"Login": Quarantined, "Pay": Known}, FailureCounts{Known: 1, Quarantined: 1, Expired: 1}, exitcode.Failed},
		{"an entry of another plan matches nothing", Options{Quarantine: []Quarantine{{Name: "Login", Plan: "other", Until: day("2027-01-01")}}, Now: today},
			map[string]Failure{"Login": New}, FailureCounts{New: 2}, exitcode.Failed},
		{"no baseline run found", Options{BaselineBranch: "main", Baselines: map[string]*Baseline{"p": {Branch: "main"}}, FailOn: FailOnNew},
			map[string]Failure{"Login": New, "Pay": New}, FailureCounts{New: 2}, exitcode.Failed},
		{"baseline unreadable", Options{BaselineBranch: "main", FailOn: FailOnNew, Baselines: map[string]*Baseline{"p": {Branch: "main",
			RunShortID: "r1", Err: errors.New("502")}}}, map[string]Failure{"Login": New, "Pay": New}, FailureCounts{New: 2}, exitcode.Failed},
	} {
		v := Decide([]Record{classesRecord()}, c.o)
		r := v.Runs[0]
		got := classesOf(r)
		for name, want := range c.classes {
			if got[name] != want {
				t.Errorf("%s: %s is %q, want %q", c.name, name, got[name], want)
			}
		}
		if r.Failures != c.counts || v.Failures != c.counts {
			t.Errorf("%s: counts %+v, want %+v", c.name, r.Failures, c.counts)
		}
		if v.Code != c.code {
			t.Errorf("%s: exit %d, want %d", c.name, v.Code, c.code)
		}
		if r.Code == 0 && r.Result != api.ResultFailed {
			t.Errorf("%s: a run whose failures do not fail the gate is still FAILED: %s", c.name, r.Result)
		}
	}
}

// A result testctl does not know fails the gate, whatever its failures' classes.
func TestExcusedFailuresDoNotPassAnUnknownResult(t *testing.T) {
	rec := Record{Plan: Plan{ShortID: "p"}, Detail: completed("r", "BLOCKED", tc("1", "Pay", api.StatusCompleted, api.ResultFailed))}
	o := Options{Quarantine: []Quarantine{{Name: "Pay", Until: day("2027-01-01")}}, Now: today}
	if got := Decide([]Record{rec}, o).Code; got != exitcode.Failed {
		t.Errorf("exit %d, want 1", got)
	}
}

func TestStaleQuarantineEntries(t *testing.T) {
	o := Options{Quarantine: []Quarantine{{Name: "Login", Until: day("2027-01-01")}, {Name: "Gone", Until: day("2027-01-01"), Line: 7}}, Now: today}
	v := Decide([]Record{classesRecord()}, o)
	if len(v.Stale) != 1 || v.Stale[0].Name != "Gone" {
		t.Errorf("stale: %+v", v.Stale)
	}
	if !v.Classified {
		t.Error("a quarantine file classifies failures")
	}
	// A run cut short may not list every test case yet: nothing is stale.
	cut := classesRecord()
	cut.Detail.Status, cut.Stop = api.StatusRunning, TimedOut
	if v := Decide([]Record{cut}, o); len(v.Stale) != 0 {
		t.Errorf("stale after a timeout: %+v", v.Stale)
	}
}

// New failures first, then known ones.
func TestByFailureOrder(t *testing.T) {
	base := baselineOf(tc("b2", "Pay", api.StatusCompleted, api.ResultFailed))
	r := Decide([]Record{classesRecord()}, Options{BaselineBranch: "main", Baselines: base, FailOn: FailOnNew}).Runs[0]
	if got := r.ByFailure(); len(got) != 2 || got[0].Name != "Login" || got[1].Name != "Pay" {
		t.Errorf("order: %+v", got)
	}
}

func TestFailureCountsString(t *testing.T) {
	for n, want := range map[FailureCounts]string{
		{New: 1, Known: 2, Quarantined: 1}: "1 new failure · 2 known · 1 quarantined",
		{New: 2}:                           "2 new failures",
		{Known: 1, Expired: 1}:             "1 known · 1 quarantine expired",
		{}:                                 "no failures",
	} {
		if got := n.String(); got != want {
			t.Errorf("%+v: %q, want %q", n, got, want)
		}
	}
}
