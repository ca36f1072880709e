package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Issue 33, point 1: on a terminal of 100 or 60 columns a logs table keeps
// what it is opened for. Each row shows the end of its URL (the part that
// tells requests apart: …/api/payments, ?sku=TR2-42) and its message; no
// header is cut; a column empty on every row is left out; one line on
// stderr says where the whole text is, only when something was shortened;
// piped, every column and every value is whole, and no hint is given.

const shortenedHint = output.ShortenedNote

// failingCases runs the failing plan to its end and returns its run test
// case short ids by name.
func failingCases(t *testing.T, e *cmdtest.Env) map[string]string {
	t.Helper()
	c := &api.Client{BaseURL: e.Getenv("TESTCTL_BASE_URL"), APIKey: sandbox.ProjectKey, Clock: e.Clock}
	started, err := c.StartRun(context.Background(), api.StartRunRequest{TestPlanShortID: sandbox.PlanFailing})
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	run, err := c.GetRun(context.Background(), started.Run.ShortID, api.GetRunOptions{TestCases: "all"})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, tc := range run.RunTestCases {
		ids[tc.Name] = tc.ShortID
	}
	return ids
}

// terminalRows are the lines of a terminal table, colour removed, each
// checked to fit width and its header to be whole (known headers only).
func terminalRows(t *testing.T, width int, stdout string, headers ...string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(ansi.Strip(stdout), "\n"), "\n")
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("width %d: a line of %d columns: %q", width, w, l)
		}
	}
	for _, h := range strings.Fields(strings.ReplaceAll(lines[0], "LAST R", "LAST_R")) {
		if !strings.Contains(" "+strings.Join(headers, " ")+" ", " "+strings.ReplaceAll(h, "_", " ")+" ") {
			t.Errorf("width %d: header %q is not one of %q (cut?): %q", width, h, headers, lines[0])
		}
	}
	return lines
}

// pipedRows are the rows of a plain table, split into cells.
func pipedRows(stdout string) [][]string {
	var rows [][]string
	for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")[1:] {
		rows = append(rows, strings.Split(l, "\t"))
	}
	return rows
}

func TestLogsNetworkTableKeepsTheURLsEnd(t *testing.T) {
	e := cmdtest.New(t)
	id := failingCases(t, e)["Pay with a declined card"]
	piped := e.Run("logs", id, "--kind", "network").Expect(t, 0)
	cmdtest.Contains(t, "piped table", piped.Stdout, "TIME\tMETHOD\tSTATUS\tDURATION\tURL\tERROR\n",
		"\tPOST\t502\t5.2s\thttps://staging.sandbox.testctl.invalid/api/payments\t\n",
		"\thttps://analytics.tracker.invalid/collect?v=2&t=pageview\tnet::ERR_NAME_NOT_RESOLVED\n")
	if piped.Stderr != "" {
		t.Errorf("piped, nothing is shortened and no hint is given: %q", piped.Stderr)
	}
	rows := pipedRows(piped.Stdout)
	for _, width := range []int{100, 60} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "logs", id, "--kind", "network").Expect(t, 0)
		lines := terminalRows(t, width, r.Stdout, "TIME", "METHOD", "STATUS", "DURATION", "URL", "ERROR")
		if len(lines) != len(rows)+1 {
			t.Fatalf("width %d: %d rows on the terminal, %d piped", width, len(lines)-1, len(rows))
		}
		for i, row := range rows {
			url := row[4]
			_, path, _ := strings.Cut(strings.TrimPrefix(url, "https://"), "/")
			if end := ("/" + path)[max(len(path)+1-10, 0):]; !strings.Contains(lines[i+1], end) {
				t.Errorf("width %d: the row of %s lacks the end of its URL %q: %q", width, url, end, lines[i+1])
			}
			if !strings.Contains(lines[i+1], "  "+row[2]+"  ") {
				t.Errorf("width %d: the row of %s lacks its status %s: %q", width, url, row[2], lines[i+1])
			}
		}
		cmdtest.Contains(t, "terminal table", r.Stdout, "/api/payments", "?sku=TR2-42")
		cmdtest.Contains(t, "stderr", r.Stderr, shortenedHint)
		if strings.Count(r.Stderr, "\n") != 1 {
			t.Errorf("width %d: one line on stderr, not:\n%s", width, r.Stderr)
		}
	}

	// Requests that all succeeded have no error: the column is left out
	// on a terminal, kept piped; on a terminal wide enough nothing is
	// shortened, and nothing is said.
	r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 200}, "logs", id, "--kind", "network", "--status", "success", "--url", "payments|cart$").Expect(t, 0)
	lines := terminalRows(t, 200, r.Stdout, "TIME", "METHOD", "STATUS", "DURATION", "URL")
	cmdtest.Contains(t, "wide terminal", r.Stdout, "https://staging.sandbox.testctl.invalid/api/cart")
	if strings.Contains(lines[0], "ERROR") || strings.Contains(r.Stderr, shortenedHint) {
		t.Errorf("an empty ERROR column, or a hint for nothing shortened:\n%s\n%s", r.Stdout, r.Stderr)
	}
	piped = e.Run("logs", id, "--kind", "network", "--status", "success", "--url", "payments|cart$").Expect(t, 0)
	cmdtest.Contains(t, "piped table", piped.Stdout, "\tURL\tERROR\n")
}

func TestLogsConsoleTableGivesTheMessageTheWidth(t *testing.T) {
	e := cmdtest.New(t)
	id := failingCases(t, e)["Pay with a declined card"]
	piped := e.Run("logs", id, "--kind", "console").Expect(t, 0)
	cmdtest.Contains(t, "piped table", piped.Stdout,
		"\terror\tUncaught TypeError: Cannot read properties of undefined (reading 'status')\thttps://staging.sandbox.testctl.invalid/static/app.js:2210:9\n")
	for _, tt := range []struct {
		width int
		want  string // the message, as far as it must be shown
	}{
		{100, "Uncaught TypeError: Cannot read properties of undefined (reading"},
		{60, "Uncaught TypeError: Cannot"}, // beside a time in the one format, +9.0s
	} {
		// Errors only: a LEVEL column as narrow as "error".
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: tt.width}, "logs", id, "--kind", "console", "--warnings=false").Expect(t, 0)
		lines := terminalRows(t, tt.width, r.Stdout, "TIME", "LEVEL", "MESSAGE", "SOURCE")
		var row string
		for _, l := range lines {
			if strings.Contains(l, "Uncaught") {
				row = l
			}
		}
		if !strings.Contains(row, tt.want) || !strings.HasSuffix(row, ".js:2210:9") {
			t.Errorf("width %d: want the message to %q and the source's end (.js:2210:9): %q", tt.width, tt.want, row)
		}
		if tt.width == 100 {
			cmdtest.Contains(t, "terminal table", r.Stdout, "[analytics] could not send events: net::ERR_NAME_NOT_RESOLVED")
		}
		cmdtest.Contains(t, "stderr", r.Stderr, shortenedHint)
	}
}

func TestLogsAPICallsTableHidesEmptyColumns(t *testing.T) {
	e := cmdtest.New(t)
	id := finishedTestCases(t, e)[health]
	// The failed calls: no body was truncated, so that column is dashes.
	piped := e.Run("logs", id, "--kind", "api-calls", "--status", "errors").Expect(t, 0)
	cmdtest.Contains(t, "piped table", piped.Stdout, "\tURL\tTRUNCATED\tERROR\n", "\thttps://internal.sandbox.testctl.invalid/metrics\t-\tdial tcp")
	r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 200}, "logs", id, "--kind", "api-calls", "--status", "errors").Expect(t, 0)
	lines := terminalRows(t, 200, r.Stdout, "TIME", "METHOD", "STATUS", "SUCCESS", "DURATION", "URL", "ERROR")
	if strings.Contains(lines[0], "TRUNCATED") || strings.Contains(r.Stderr, shortenedHint) {
		t.Errorf("a column of dashes, or a hint for nothing shortened:\n%s\n%s", r.Stdout, r.Stderr)
	}

	rows := pipedRows(e.Run("logs", id, "--kind", "api-calls").Expect(t, 0).Stdout)
	for _, width := range []int{100, 60} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "logs", id, "--kind", "api-calls").Expect(t, 0)
		lines := terminalRows(t, width, r.Stdout, "TIME", "METHOD", "STATUS", "SUCCESS", "DURATION", "URL", "TRUNCATED", "ERROR")
		for i, row := range rows {
			if url := row[5]; !strings.Contains(lines[i+1], url[strings.LastIndex(url, "/"):]) {
				t.Errorf("width %d: the row of %s lacks the end of its path: %q", width, url, lines[i+1])
			}
		}
		cmdtest.Contains(t, "stderr", r.Stderr, shortenedHint)
	}
}
