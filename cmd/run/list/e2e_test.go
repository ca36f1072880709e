package list_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/sandbox"
)

const listRoute = "GET /v1/run"

func decode(t *testing.T, s string) api.RunList {
	t.Helper()
	var l api.RunList
	if err := json.Unmarshal([]byte(s), &l); err != nil {
		t.Fatalf("not one JSON document: %v\n%.500s", err, s)
	}
	return l
}

func TestListFiltersReachTheWire(t *testing.T) {
	e := cmdtest.New(t, cmdtest.WithSandbox(sandbox.Options{History: 400}))
	r := e.Run("run", "list", "--status", "completed", "--result", "failed", "--trigger", "CODEHOST", "--branch", "main", "--limit", "100", "-o", "json").Expect(t, 0)
	l := decode(t, r.Stdout)
	if len(l.Runs) == 0 || int(l.Total) < len(l.Runs) {
		t.Fatalf("no run matched: %+v", l)
	}
	for _, run := range l.Runs {
		if run.Status != "COMPLETED" || *run.Result != "FAILED" || run.Trigger != "CODEHOST" || *run.Branch != "main" {
			t.Errorf("filters not applied: %+v", run)
		}
	}
	r = e.Run("run", "list", "--plan", "pln-slow_sandbox", "-o", "json").Expect(t, 0)
	for _, run := range decode(t, r.Stdout).Runs {
		if *run.TestPlanShortID != "pln-slow_sandbox" {
			t.Errorf("--plan not applied: %+v", run)
		}
	}
}

func TestListPaging(t *testing.T) {
	e := cmdtest.New(t)
	all := decode(t, e.Run("run", "list", "--limit", "20", "-o", "json").Expect(t, 0).Stdout)
	page := decode(t, e.Run("run", "list", "--limit", "5", "--offset", "10", "-o", "json").Expect(t, 0).Stdout)
	if len(all.Runs) != 20 || len(page.Runs) != 5 || page.Limit != 5 || page.Offset != 10 || page.Total != 50 {
		t.Fatalf("all %d, page %+v", len(all.Runs), page)
	}
	for i, run := range page.Runs {
		if run.ShortID != all.Runs[10+i].ShortID {
			t.Errorf("page[%d] = %s, want %s", i, run.ShortID, all.Runs[10+i].ShortID)
		}
	}
}

// --all streams a long history as one valid document, 100 runs a request.
func TestListAllOverALongHistory(t *testing.T) {
	e := cmdtest.New(t, cmdtest.WithSandbox(sandbox.Options{History: 2500}))
	r := e.Run("run", "list", "--all", "-o", "json").Expect(t, 0)
	l := decode(t, r.Stdout)
	seen := map[string]bool{}
	for _, run := range l.Runs {
		seen[run.ShortID] = true
	}
	if len(l.Runs) != 2500 || len(seen) != 2500 || l.Total != 2500 {
		t.Errorf("%d runs (%d distinct), total %d; want 2500", len(l.Runs), len(seen), l.Total)
	}
	if n := e.Requests(listRoute); n != 25 {
		t.Errorf("%d requests, want 25 pages of 100", n)
	}

	r = e.Run("run", "list", "--all", "--status", "ERROR").Expect(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if strings.Count(r.Stdout, "SHORT ID") != 1 || len(lines) < 2 {
		t.Fatalf("one header, then rows:\n%.300s", r.Stdout)
	}
	for _, line := range lines[1:] {
		if !strings.Contains(line, "\tERROR\t") {
			t.Fatalf("row %q", line)
		}
	}
	r = e.Run("run", "list", "--all", "--offset", "2450", "--jq", ".runs | length").Expect(t, 0)
	if r.Stdout != "50\n" {
		t.Errorf("--all from offset 2450: %q", r.Stdout)
	}
}

func TestListTableOnAndOffATerminal(t *testing.T) {
	e := cmdtest.New(t)
	e.Run("run", "start", "--plan", "pln-failing_sandbox", "--codehost", "--actor", "a", "--branch", "topic",
		"--commit", "0123456789abcdef", "--commit-message", "m", "--repository", "r").Expect(t, 0)
	r := e.Run("run", "list", "--branch", "topic").Expect(t, 0)
	want := "SHORT ID\tSTATUS\tBRANCH\tCOMMIT\tPLAN\tPASS\tFAIL\tOTHER\tCREATED\n"
	if !strings.HasPrefix(r.Stdout, want) {
		t.Fatalf("header:\n%s", r.Stdout)
	}
	cmdtest.Contains(t, "plain row", r.Stdout, "\tINITIATED\ttopic\t0123456\tpln-failing_sandbox\t0\t0\t0\t2026-11-21T09:00:00Z\n")

	e.Clock.Advance(5 * 60e9) // five minutes: the run has ended
	r = e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "list", "--branch", "topic", "--no-color").Expect(t, 0)
	if strings.Contains(r.Stdout, "\t") || strings.Contains(r.Stdout, "2026-") {
		t.Errorf("TTY table has tabs or absolute times:\n%s", r.Stdout)
	}
	cmdtest.Contains(t, "TTY row", r.Stdout, "  FAILED  ", "  topic  ", "5m ago")
}

// On a wide terminal a long branch is shown whole; only a terminal too
// narrow for the row cuts it.
func TestListTableUsesTheTerminalWidth(t *testing.T) {
	e := cmdtest.New(t)
	branch := "feature/checkout-with-saved-cards-and-gift-vouchers" // 51 columns
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--branch", branch).Expect(t, 0)
	for _, tt := range []struct {
		width int
		whole bool
	}{{200, true}, {80, false}} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: tt.width}, "run", "list", "--no-color").Expect(t, 0)
		if got := strings.Contains(r.Stdout, branch); got != tt.whole {
			t.Errorf("width %d: whole branch shown = %v, want %v:\n%s", tt.width, got, tt.whole, r.Stdout)
		}
		cmdtest.Contains(t, "row", r.Stdout, "feature/")
	}
}

func TestListInvalidFiltersSendNothing(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{{"--status", "DONE"}, {"--result", "GREEN"}, {"--trigger", "cron"}, {"--limit", "500"}, {"--plan", "x"}} {
		r := e.Run(append([]string{"run", "list"}, args...)...).Expect(t, 2)
		cmdtest.Contains(t, "stderr", r.Stderr, args[0])
	}
	r := e.Run("run", "list", "--status", "DONE")
	cmdtest.Contains(t, "stderr", r.Stderr, "INITIATED, RUNNING, COMPLETED, ERROR, CANCELLED")
	if n := e.Requests(listRoute); n != 0 {
		t.Errorf("%d requests", n)
	}
}

func TestListEmpty(t *testing.T) {
	e := cmdtest.New(t)
	// Only the message, on stderr: no header row on stdout, one page or all,
	// on a terminal or off it.
	for _, args := range [][]string{{"--branch", "no-such-branch"}, {"--branch", "no-such-branch", "--all"}} {
		for _, tty := range []bool{false, true} {
			r := e.RunWith(cmdtest.RunOptions{TTY: tty}, append([]string{"run", "list"}, args...)...).Expect(t, 0)
			if r.Stdout != "" {
				t.Errorf("%q tty %v: stdout %q, want nothing", args, tty, r.Stdout)
			}
			cmdtest.Contains(t, "stderr", r.Stderr, "No runs match.")
		}
	}
	r := e.Run("run", "list", "--branch", "no-such-branch", "--all", "-o", "json").Expect(t, 0)
	if l := decode(t, r.Stdout); len(l.Runs) != 0 || l.Total != 0 {
		t.Errorf("%+v", l)
	}
}

// Issue 39, point 8: on a terminal a column empty on every row is left
// out, so that at 60 columns the runs started without a branch or a
// commit keep their plan instead of an all-"-" BRANCH; off a terminal the
// columns stay fixed.
func TestListLeavesOutEmptyColumnsOnATerminal(t *testing.T) {
	e := cmdtest.New(t, cmdtest.WithSandbox(sandbox.Options{History: -1}))
	e.StartRun(t, sandbox.PlanFailing)
	e.StartRun(t, sandbox.PlanPassing)
	e.Clock.Advance(5 * 60e9)
	r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 60}, "run", "list").Expect(t, 0)
	lines := strings.Split(strings.TrimSuffix(ansi.Strip(r.Stdout), "\n"), "\n")
	if header := strings.Fields(lines[0]); strings.Join(header, " ") != "SHORT ID STATUS PLAN PASS FAIL OTHER CREATED" {
		t.Errorf("header %q:\n%s", lines[0], r.Stdout)
	}
	cmdtest.Contains(t, "rows", r.Stdout, "  pln-failing_s", "  pln-passing_s")
	r = e.Run("run", "list").Expect(t, 0)
	cmdtest.Contains(t, "plain table", r.Stdout, "SHORT ID\tSTATUS\tBRANCH\tCOMMIT\tPLAN\tPASS\tFAIL\tOTHER\tCREATED\n", "\t-\t-\tpln-failing_sandbox\t")
}

// Issue 24: on a 50-column terminal no row wraps. The commit, plan, other
// and passed counts give way before the branch is cut; the short id is
// whole, and off a terminal every column is printed.
func TestListTableFitsANarrowTerminal(t *testing.T) {
	e := cmdtest.New(t)
	e.Run("run", "start", "--plan", "pln-failing_sandbox", "--codehost", "--actor", "a", "--branch", "feature/checkout-with-saved-cards",
		"--commit", "0123456789abcdef", "--commit-message", "m", "--repository", "r").Expect(t, 0)
	e.Clock.Advance(5 * 60e9)
	for _, color := range [][]string{{"--no-color"}, nil} {
		args := append([]string{"run", "list", "-L", "10"}, color...)
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 50}, args...).Expect(t, 0)
		lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
		if len(lines) != 11 || !strings.HasPrefix(ansi.Strip(lines[0]), "SHORT ID  STATUS  ") {
			t.Fatalf("want a header and 10 rows:\n%s", r.Stdout)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 50 {
				t.Errorf("%d columns: %q", w, ansi.Strip(l))
			}
		}
		cmdtest.Contains(t, "narrow row", ansi.Strip(r.Stdout), "  FAILED  ", "  feature", "  5m ago\n")
	}
	r := e.Run("run", "list", "-L", "1").Expect(t, 0)
	cmdtest.Contains(t, "plain row", r.Stdout, "\tfeature/checkout-with-saved-cards\t0123456\tpln-failing_sandbox\t")
}
