package shellwords

import (
	"regexp"
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

// The patterns are compiled on first use, so that start-up pays only for those
// a command line evaluates; compiling each one here makes a mistyped pattern
// fail the tests rather than the first command that reaches it.
func TestPatternsCompile(t *testing.T) {
	for _, rx := range []func() *regexp.Regexp{shellSafe} {
		rx()
	}
}
