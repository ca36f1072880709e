package cmdutil

import (
	"strings"
	"testing"
)

// A run id that would read as a flag comes after "--" in the run wait
// line, where run wait refuses it instead of writing where it says.
func TestWaitCommandPutsFlagLikeIDsAfterDashDash(t *testing.T) {
	for ids, want := range map[string]string{
		"r1 r2":                "testctl run wait r1 r2",
		"--junit=/tmp/x/rc r2": "testctl run wait -- --junit=/tmp/x/rc r2",
		"r1 -h":                "testctl run wait -- r1 -h",
		"r1;x --base-url=evil": "testctl run wait -- 'r1;x' --base-url=evil",
	} {
		if got := WaitCommand(nil, strings.Fields(ids)); got != want {
			t.Errorf("%s: %q, want %q", ids, got, want)
		}
	}
}
