package report

import (
	"testing"
	"time"
)

// SetIssuesBudget shrinks the budget of the read of a run with its issues
// for the test t, so a test of a read that never answers takes
// milliseconds.
func SetIssuesBudget(t *testing.T, d time.Duration) {
	saved := issuesBudget
	issuesBudget = d
	t.Cleanup(func() { issuesBudget = saved })
}
