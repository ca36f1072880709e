package e2e_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Issue 33, point 2, and issue 39, point 7: test case ids are whole at
// every width, and the names beside them as far as the width allows: the
// other columns are dropped first, then a name is cut, and left out where
// not even a few characters of it fit; a header is never cut, and piped
// every column is there.
func TestTestCaseNamesStayReadable(t *testing.T) {
	e := cmdtest.New(t)
	piped := e.Run("testcase", "list").Expect(t, 0)
	rows := pipedRows(piped.Stdout)
	if len(rows) != 10 || piped.Stderr != "" || !strings.HasPrefix(piped.Stdout, "ID\tNAME\tENABLED\tLABELS\tAPPLICATION\tLAST RESULT\tLAST RUN\n") {
		t.Fatalf("piped:\n%s\n%s", piped.Stdout, piped.Stderr)
	}
	for _, width := range []int{100, 72, 60, 40} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "testcase", "list").Expect(t, 0)
		lines := terminalRows(t, width, r.Stdout, "ID", "NAME", "ENABLED", "LABELS", "APPLICATION", "LAST RESULT", "LAST RUN")
		for i, row := range rows {
			id, rest, _ := strings.Cut(lines[i+1], "  ")
			if id != row[0] {
				t.Errorf("width %d: the id %q is not whole: %q", width, row[0], lines[i+1])
			}
			name := strings.TrimSpace(rest)
			switch {
			case width == 40 && name != "":
				t.Errorf("width 40: a name beside the id: %q", lines[i+1])
			case width == 100 && !strings.HasPrefix(name, row[1]):
				t.Errorf("width 100: the name %q is cut: %q", row[1], lines[i+1])
			case width < 100 && width > 40 && (name == "" || !strings.HasPrefix(row[1], strings.TrimSuffix(name, "…"))):
				t.Errorf("width %d: not the start of the name %q: %q", width, row[1], lines[i+1])
			}
		}
		if width == 100 {
			// The id whole, to copy, and the last result beside the name.
			cmdtest.Contains(t, "100 columns", ansi.Strip(r.Stdout), "ID                                    NAME", "LAST RESULT\n", sandbox.TestCaseLogin+"  Log in")
		}
	}

	id := finishedRun(t, e, sandbox.PlanFailing, 1)
	for _, width := range []int{100, 60} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "run", "get", id).Expect(t, 0)
		table := r.Stdout[strings.Index(r.Stdout, "SHORT ID"):]
		lines := terminalRows(t, width, table, "SHORT ID", "NAME", "STATUS", "RESULT", "RESULT TITLE")
		for _, name := range []string{"Log in with email and password", "Receive the order confirmation email", "Pay with a declined card"} {
			cmdtest.Contains(t, "case table", table, "  "+name+"  ")
		}
		if !strings.Contains(lines[0], "RESULT") {
			t.Errorf("width %d: the result is kept: %q", width, lines[0])
		}
		if width == 60 && strings.Contains(r.Stdout, "COMPLETED  ") {
			t.Errorf("at 60 columns the status gives way to the names:\n%s", table)
		}
		if width == 60 {
			cmdtest.Contains(t, "stderr", r.Stderr, output.ShortenedNote)
		}
	}
}
