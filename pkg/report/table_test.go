package report_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/report"
)

// A case name is cut only when the terminal has no room for it, never at
// a fixed width while columns are left blank.
func TestCaseTableUsesTheTerminalWidth(t *testing.T) {
	name := "Check out with a saved card and a gift voucher on a slow network" // 64 columns
	cases := []api.RunTestCase{{ShortID: "r1-0", Name: name, Status: api.StatusCompleted, Result: api.ResultPassed, ResultTitle: "Paid"}}
	tests := []struct {
		width int
		whole bool
	}{
		{200, true},
		{120, true},
		{80, false},
	}
	for _, tt := range tests {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		ios.SetColorDisabled(true)
		ios.SetTerminalWidth(tt.width)
		if err := report.WriteCaseTable(ios, false, report.RunCases{RunShortID: "r1", Cases: cases}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), name); got != tt.whole {
			t.Errorf("width %d: whole name shown = %v, want %v:\n%s", tt.width, got, tt.whole, out)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if w := len([]rune(line)); w > tt.width {
				t.Errorf("width %d: line of %d columns: %q", tt.width, w, line)
			}
		}
	}
}

// With several runs on a terminal, the RUN column goes when every case's
// short id already begins with its run's; off a terminal it stays, for
// scripts.
func TestCaseTableDropsARedundantRunColumnOnATerminal(t *testing.T) {
	runs := []report.RunCases{
		{RunShortID: "r1a2b3", Cases: []api.RunTestCase{{ShortID: "r1a2b3-1", Name: "Log in", Status: "COMPLETED", Result: "PASSED"}}},
		{RunShortID: "r4c5d6", Cases: []api.RunTestCase{{ShortID: "r4c5d6-1", Name: "Search", Status: "COMPLETED", Result: "FAILED"}}},
	}
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetTerminalWidth(50)
	if err := report.WriteCaseTable(ios, true, runs...); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "RUN") {
		t.Errorf("a RUN column that repeats the short ids:\n%s", out)
	}
	ios, _, out, _ = iostreams.Test()
	if err := report.WriteCaseTable(ios, true, runs...); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "RUN\t") {
		t.Errorf("off a terminal the columns changed:\n%s", out)
	}
}
