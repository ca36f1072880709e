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

func (e Evidence) junitText(caseShortID string) string {
	if c, ok := e.get(caseShortID); ok {
		return evidence.Text(c)
	}
	return ""
}

func (e Evidence) firstLine(caseShortID string) string {
	if c, ok := e.get(caseShortID); ok {
		return evidence.FirstLine(c)
	}
	return ""
}

func (e Evidence) markdown(caseShortID string) string {
	if c, ok := e.get(caseShortID); ok {
		return evidence.Markdown(c)
	}
	return ""
}
