package e2e_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/pkg/cmdtest"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Issue 33, point 2: at 100 and 60 columns test case names are whole: the
// other columns are dropped or shortened first, a header is never cut, and
// piped every column is there.
func TestTestCaseNamesStayReadable(t *testing.T) {
	e := cmdtest.New(t)
	piped := e.Run("testcase", "list").Expect(t, 0)
	rows := pipedRows(piped.Stdout)
	if len(rows) != 10 || piped.Stderr != "" || !strings.HasPrefix(piped.Stdout, "ID\tNAME\tENABLED\tLABELS\tAPPLICATION\tLAST RESULT\tLAST RUN\n") {
		t.Fatalf("piped:\n%s\n%s", piped.Stdout, piped.Stderr)
	}
	for _, width := range []int{100, 60} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "testcase", "list").Expect(t, 0)
		lines := terminalRows(t, width, r.Stdout, "ID", "NAME", "ENABLED", "LABELS", "APPLICATION", "LAST RESULT", "LAST RUN")
		for i, row := range rows {
			if !strings.Contains(lines[i+1], "  "+row[1]) {
				t.Errorf("width %d: the name %q is cut: %q", width, row[1], lines[i+1])
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
