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

// A run's colour is its code's: a result testctl does not know is never green.
func TestRunToneFollowsTheCode(t *testing.T) {
	for _, c := range []struct {
		rec  Record
		want Tone
	}{
		{Record{Detail: completed("r", api.ResultPassed)}, ToneGood},
		{Record{Detail: completed("r", "BLOCKED", tc("1", "a", api.StatusCompleted, api.ResultPassed))}, ToneBad},
		{Record{Detail: completed("r", api.ResultSkipped)}, ToneWarn},
		{Record{Detail: completed("r", api.ResultPassed, tc("1", "a", api.StatusCompleted, api.ResultSkipped))}, ToneWarn},
	} {
		if got := Decide([]Record{c.rec}, Options{}).Runs[0].Tone(); got != c.want {
			t.Errorf("%s: tone %v, want %v", c.rec.Detail.ResultOrEmpty(), got, c.want)
		}
	}
}
