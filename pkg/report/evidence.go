package report

import "github.com/testctl/testctl/pkg/evidence"

// Evidence is what was gathered of the test cases that did not pass, by
// run test case short id; nil when nothing was.
type Evidence map[string]evidence.Case

// NewEvidence indexes gathered cases by their run test case.
func NewEvidence(cases []evidence.Case) Evidence {
	if len(cases) == 0 {
		return nil
	}
	e := make(Evidence, len(cases))
	for _, c := range cases {
		e[c.CaseShortID] = c
	}
	return e
}

func (e Evidence) get(caseShortID string) (evidence.Case, bool) {
	c, ok := e[caseShortID]
	return c, ok && caseShortID != ""
}

// text renders a test case's evidence, "" when none was gathered.
func (e Evidence) text(caseShortID string, render func(evidence.Case) string) string {
	if c, ok := e.get(caseShortID); ok {
		return render(c)
	}
	return ""
}

// moreCommands are the commands that show a test case's evidence when none
// was gathered (--evidence 0, or past its limit): the same, quoted the same,
// as beside gathered evidence.
func moreCommands(caseShortID string) []string {
	return evidence.Commands(evidence.Case{Target: evidence.Target{CaseShortID: caseShortID}})
}
