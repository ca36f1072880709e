package verdict

import (
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func TestSummaryClass(t *testing.T) {
	for _, c := range []struct {
		status, result string
		want           Class
	}{
		{api.StatusCompleted, api.ResultPassed, Passed},
		{api.StatusCompleted, api.ResultSkipped, Skipped},
		{api.StatusCompleted, api.ResultFailed, Failed},
		{api.StatusCompleted, "BLOCKED", Failed},
		{api.StatusCompleted, "", Failed},
		{api.StatusError, "", Errored},
		{api.StatusCancelled, api.ResultFailed, Errored},
		{api.StatusRunning, "", NotRun},
		{api.StatusInitiated, "", NotRun},
		{"PAUSED", "", NotRun},
		{"", "", NotRun},
	} {
		if got := SummaryClass(c.status, c.result); got != c.want {
			t.Errorf("SummaryClass(%q, %q) = %q, want %q", c.status, c.result, got, c.want)
		}
	}
}
