package report

import "github.com/testctl/testctl/pkg/evidence"

// Evidence is what was gathered of the test cases that did not pass, by
// run test case short id; nil when nothing was.
type Evidence map[string]evidence.Case

func (e Evidence) junitText(caseShortID string) string {
	c, ok := e[caseShortID]
	if !ok {
		return ""
	}
	_ = c
	return ""
}

func (e Evidence) firstLine(caseShortID string) string { return "" }

func (e Evidence) markdown(caseShortID string) string { return "" }
