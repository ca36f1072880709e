package report

import (
	"fmt"
	"io"

	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// FailureWord is the class of a test case that did not pass, as every
// report names it: "new", "known", "quarantined", with "quarantine
// expired" added to one whose entry's date has passed (it fails the gate
// again).
func FailureWord(c verdict.Case) string {
	if c.QuarantineExpired {
		return string(c.Failure) + " · quarantine expired"
	}
	return string(c.Failure)
}

// quarantineNote says what the entry of a quarantined test case says, or
// that it expired; "" for a test case no entry names.
func quarantineNote(c verdict.Case) string {
	q := c.Quarantine
	if q == nil || c.Failure == "" {
		return ""
	}
	who := ""
	if q.Owner != "" {
		who = " (owner " + q.Owner + ")"
	}
	why := ""
	if q.Reason != "" {
		why = ": " + q.Reason
	}
	if c.QuarantineExpired {
		return fmt.Sprintf("quarantine expired on %s%s%s: it fails the gate again", q.Until.Format("2006-01-02"), who, why)
	}
	return fmt.Sprintf("quarantined until %s%s%s", q.Until.Format("2006-01-02"), who, why)
}

// baselineNote says what a run's failures were compared with: "against
// run r1 on main", that no baseline run was found, or that it could not be
// read; "" when no baseline was asked for.
func baselineNote(r verdict.Run, branch string) string {
	b := r.Baseline
	switch {
	case branch == "" || r.NotStarted || r.Detail == nil:
		return ""
	case b == nil && r.Plan.ShortID == "":
		return "no baseline: the run's plan is not known, so every failure is new"
	case b != nil && b.Err != nil && b.RunShortID != "":
		return fmt.Sprintf("warning: the baseline run %s on %s could not be read (%s): every failure is new", b.RunShortID, branch, FirstLine(b.Err.Error()))
	case b != nil && b.Err != nil:
		return fmt.Sprintf("warning: the baseline of %s on %s could not be found (%s): every failure is new", r.Plan.What(), branch, FirstLine(b.Err.Error()))
	case b == nil || b.RunShortID == "":
		return fmt.Sprintf("no COMPLETED run of %s on %s to compare with: every failure is new", r.Plan.What(), branch)
	}
	return fmt.Sprintf("against run %s on %s", b.RunShortID, branch)
}

// writeStale warns of the quarantine entries that named no test case of
// the runs: a quarantine nobody lifts outlives its test.
func writeStale(w io.Writer, v verdict.Verdict) {
	for _, q := range v.Stale {
		where := ""
		if q.Line > 0 {
			where = fmt.Sprintf(" (line %d)", q.Line)
		}
		plan := ""
		if q.Plan != "" {
			plan = " of plan " + termtext.SanitizeLine(q.Plan)
		}
		fmt.Fprintf(w, "warning: the quarantine entry%s for %q%s matches no test case of these runs: remove it or fix its name\n",
			where, termtext.SanitizeLine(q.Name), plan)
	}
	for _, u := range v.Unplaced {
		where := ""
		if u.Entry.Line > 0 {
			where = fmt.Sprintf(" (line %d)", u.Entry.Line)
		}
		fmt.Fprintf(w, "warning: the quarantine entry%s for %q of plan %s was not applied to run %s: neither the run nor the run list says its plan\n",
			where, termtext.SanitizeLine(u.Entry.Name), termtext.SanitizeLine(u.Entry.Plan), termtext.SanitizeLine(u.RunShortID))
	}
}
