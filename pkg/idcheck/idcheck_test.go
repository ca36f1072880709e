package idcheck

import (
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
)

func TestIsUUID(t *testing.T) {
	for s, want := range map[string]bool{
		"5a4db001-0000-4000-8000-000000000001":  true,
		"5A4DB000-0000-4000-8000-00000000000A":  true,
		"5a4db000-0000-4000-8000-00000000000":   false,
		"5a4db000-0000-4000-8000-0000000000001": false,
		"5a4db000x0000-4000-8000-000000000001":  false,
		"5a4db000-0000-4000-8000-00000000000g":  false,
		"{5a4db000-0000-4000-8000-00000000001}": false,
		"":                                      false,
	} {
		if IsUUID(s) != want {
			t.Errorf("IsUUID(%q) = %v", s, !want)
		}
	}
}

func TestValidateRunID(t *testing.T) {
	for id, want := range map[string]string{
		"r4m0gl": "", "hulq0y": "", "": "empty run short id", "r0/../x": "invalid run short id", "r1 x": "invalid run short id",
		"r1?a=b": "invalid run short id", "r1#x": "invalid run short id", "r1\x1b[2J": "invalid run short id", "r1\u00a0": "invalid run short id",
		".": "invalid run short id", "..": "invalid run short id", `r1\x`: "invalid run short id", "%2e%2e": "invalid run short id",
	} {
		err := ValidateRunID(id)
		if (err == nil) != (want == "") || err != nil && (!strings.Contains(err.Error(), want) || exitcode.Of(err) != 2) {
			t.Errorf("ValidateRunID(%q) = %v, want %q", id, err, want)
		}
	}
}

// The patterns are compiled on first use, so that start-up pays only for those
// a command line evaluates; compiling each one here makes a mistyped pattern
// fail the tests rather than the first command that reaches it.
func TestPatternsCompile(t *testing.T) {
	for _, rx := range []func() *regexp.Regexp{uuidPattern} {
		rx()
	}
}
