package runwait

import (
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/verdict"
)

// earlyEvidence is the consumer that reads the failure story while the runs
// go on: the logs of each test case that ends without passing are read as
// it ends (its telemetry is final then), at most max test cases (--evidence
// N), so that when the runs end only their issues are left to read. A test
// case the service later reports otherwise ends again, and is read again.
type earlyEvidence struct {
	report.IgnoreEvents
	reader *evidence.Reader
	max    int
	read   map[string]bool // the test cases read early, by run test case short id
}

func (e *earlyEvidence) Name() string { return "the evidence read as test cases end" }

// End reads nothing more: finish takes up what was read.
func (e *earlyEvidence) End(report.Outcome) error { return nil }

func (e *earlyEvidence) CaseEnded(p *report.Progress, tc api.RunTestCase) {
	// A test case without a short id has no logs to ask for (the end says
	// why); it takes no place among the N.
	if tc.ShortID == "" || !verdict.ClassOf(tc, false).DidNotPass() || (!e.read[tc.ShortID] && len(e.read) >= e.max) {
		return
	}
	e.read[tc.ShortID] = true
	e.reader.Prefetch(evidence.TargetOf(p.ShortID, p.Plan.Title(), tc))
}
