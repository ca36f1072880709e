package verdict

import (
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

// The live tally uses the verdict's classes: a cancelled test case is
// errored there as in the summary, and what has not ended is running or
// queued.
func TestLiveCountsString(t *testing.T) {
	if got := (LiveCounts{}).String(); got != "no test cases yet" {
		t.Errorf("empty: %q", got)
	}
	c := Live([]api.RunTestCase{{Status: api.StatusInitiated}, {Status: api.StatusCancelled}, {Status: api.StatusRunning},
		{Status: api.StatusError}, {Status: api.StatusCompleted, Result: api.ResultSkipped}, {Status: api.StatusCompleted, Result: "BLOCKED"}})
	if got := c.String(); got != "1 failed · 1 skipped · 2 errored · 1 running · 1 queued" {
		t.Errorf("counts: %q", got)
	}
}

// A lone word stands for the class of a run or test case it ends with; a
// word testctl does not know stands for none.
func TestWordClass(t *testing.T) {
	for word, want := range map[string]Class{
		"PASSED": Passed, "completed": Passed, "FAILED": Failed, "ERROR": Errored, "CANCELLED": Errored,
		"SKIPPED": Skipped, "RUNNING": NotRun, "INITIATED": NotRun, "BLOCKED": "", "COMPLETED · FAILED": "",
	} {
		if got := WordClass(word); got != want {
			t.Errorf("WordClass(%q) = %q, want %q", word, got, want)
		}
	}
}
