package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/sandbox"
)

const getTestCases = "GET /v1/test-cases"

func TestTestCaseListInvalidFlagsSendNothing(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{
		{"--app", "web"}, {"--enabled", "maybe"}, {"--limit", "-3"}, {"--offset", "-1"}, {"--label", " "},
	} {
		r := e.Run(append([]string{"testcase", "list"}, args...)...).Expect(t, 2)
		cmdtest.Contains(t, "stderr", r.Stderr, args[0], "--help")
		if r.Stdout != "" {
			t.Errorf("%v: stdout %q", args, r.Stdout)
		}
	}
	if n := totalRequests(e); n != 0 {
		t.Errorf("%d requests reached the sandbox", n)
	}
}

// The service takes labels comma-joined and isEnabled as true/false; the
// --debug log shows the query exactly as sent.
func TestFiltersReachTheWire(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("testcase", "list", "--label", "auth", "--label", "api", "--enabled", "true",
		"--app", "app_sandbox-web", "--debug", "-o", "json").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "labels=auth%2Capi", "isEnabled=true", "applicationShortId=app_sandbox-web")
	var list struct {
		TestCases []struct {
			ID     string   `json:"id"`
			Labels []string `json:"labels"`
		} `json:"testCases"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	// Any of the labels matches: the login test (auth) and the API test (api).
	if list.Total != 2 || len(list.TestCases) != 2 || list.TestCases[0].ID != sandbox.TestCaseLogin ||
		list.TestCases[1].ID != sandbox.TestCaseHealthAPI {
		t.Errorf("labels auth,api: %+v", list)
	}

	r = e.Run("testcase", "list", "--enabled", "false", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "isEnabled=false")
	cmdtest.Contains(t, "stdout", r.Stdout, sandbox.TestCaseProfilePhoto, "Upload a profile picture")
	if lines := strings.Count(r.Stdout, "\n"); lines != 2 {
		t.Errorf("--enabled false: %d lines, want header and one row:\n%s", lines, r.Stdout)
	}
}

func TestAllStreamsEveryPageAsOneDocument(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("testcase", "list", "--all", "--limit", "3", "-o", "json").Expect(t, 0)
	var doc struct {
		TestCases []struct {
			ID string `json:"id"`
		} `json:"testCases"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, r.Stdout)
	}
	if len(doc.TestCases) != 10 || doc.Total != 10 {
		t.Errorf("%d test cases, total %d; want the 10 fixtures", len(doc.TestCases), doc.Total)
	}
	seen := map[string]bool{}
	for _, tc := range doc.TestCases {
		if seen[tc.ID] {
			t.Errorf("%s listed twice", tc.ID)
		}
		seen[tc.ID] = true
	}
	if n := e.Requests(getTestCases); n != 4 {
		t.Errorf("%d pages requested, want 4 (3+3+3+1)", n)
	}

	r = e.Run("testcase", "list", "--all", "--limit", "4", "--jq", ".testCases | length").Expect(t, 0)
	if strings.TrimSpace(r.Stdout) != "10" {
		t.Errorf("--jq over --all: %q", r.Stdout)
	}
	r = e.Run("testcase", "list", "--all", "--limit", "4", "--offset", "8").Expect(t, 0)
	if strings.Count(r.Stdout, "ID\t") != 1 || strings.Count(r.Stdout, "\n") != 3 {
		t.Errorf("--all from offset 8: want one header and two rows:\n%s", r.Stdout)
	}
}

func TestTableOnAndOffTerminal(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("testcase", "list").Expect(t, 0)
	cmdtest.Contains(t, "plain table", r.Stdout, "ID\tNAME\tENABLED\tLABELS\tAPPLICATION\tLAST RESULT\tLAST RUN\n",
		sandbox.TestCaseLogin+"\tLog in with email and password\tyes\tauth,smoke\tapp_sandbox-web\t", "\tno\taccount\t")
	if !strings.Contains(r.Stdout, "T") || !strings.Contains(r.Stdout, "Z\n") {
		t.Errorf("off a terminal, times are RFC 3339:\n%s", r.Stdout)
	}

	r = e.RunWith(cmdtest.RunOptions{TTY: true, Width: 200}, "testcase", "list", "--limit", "5").Expect(t, 0)
	if !strings.Contains(r.Stdout, " ago") && !strings.Contains(r.Stdout, "just now") {
		t.Errorf("on a terminal times are relative:\n%s", r.Stdout)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Showing 1–5 of 10", "--all")
}

// The ids a terminal shows, whole at every width (issue 39, point 7), are
// the ids commands take: each one, copied from the table, starts a run
// (dry run: nothing is sent). Where the name beside it is cut, stderr says
// where it is whole.
func TestTerminalIDsAreAcceptedByRunStart(t *testing.T) {
	e := cmdtest.New(t)
	for _, width := range []int{40, 60, 80, 100, 200} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "testcase", "list").Expect(t, 0)
		lines := strings.Split(strings.TrimSpace(ansi.Strip(r.Stdout)), "\n")
		if len(lines) < 2 || !strings.Contains(r.Stdout, sandbox.TestCaseLogin) {
			t.Fatalf("width %d: no rows, or no full id of %s:\n%s", width, sandbox.TestCaseLogin, r.Stdout)
		}
		for _, line := range lines[1:] {
			id, _, _ := strings.Cut(line, " ")
			e.Run("run", "start", "--test-case", id, "--dry-run").Expect(t, 0)
		}
	}
	for _, width := range []int{40, 60} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "testcase", "list").Expect(t, 0)
		cmdtest.Contains(t, "stderr", r.Stderr, output.ShortenedNote)
	}
}

func TestNoMatch(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{{"--label", "no-such-label"}, {"--label", "no-such-label", "--all"}} {
		for _, tty := range []bool{false, true} {
			r := e.RunWith(cmdtest.RunOptions{TTY: tty}, append([]string{"testcase", "list"}, args...)...).Expect(t, 0)
			if r.Stdout != "" || !strings.Contains(r.Stderr, "No test cases match.") {
				t.Errorf("%q tty %v: stdout %q, stderr %q; want only the message, on stderr", args, tty, r.Stdout, r.Stderr)
			}
		}
	}
	r := e.Run("testcase", "list", "--label", "no-such-label").Expect(t, 0)
	r = e.Run("testcase", "list", "--label", "no-such-label", "-o", "json").Expect(t, 0)
	if r.Stderr != "" || !strings.Contains(r.Stdout, `"testCases": []`) {
		t.Errorf("json: %q %q", r.Stdout, r.Stderr)
	}
}

// Issue 24: on a 50-column terminal no row wraps. The id stays whole
// (issue 39, point 7): the other columns give way, and the name is cut.
// Off a terminal every column is printed.
func TestTableFitsANarrowTerminal(t *testing.T) {
	e := cmdtest.New(t)
	for _, color := range [][]string{{"--no-color"}, nil} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 50}, append([]string{"testcase", "list"}, color...)...).Expect(t, 0)
		lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
		if len(lines) < 2 || !strings.HasPrefix(ansi.Strip(lines[0]), "ID  ") || !strings.Contains(lines[1], sandbox.TestCaseLogin+"  Log in with…") {
			t.Fatalf("want the header, then the whole id and the start of the name:\n%s", r.Stdout)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 50 {
				t.Errorf("%d columns: %q", w, ansi.Strip(l))
			}
		}
	}
	r := e.Run("testcase", "list").Expect(t, 0)
	cmdtest.Contains(t, "plain table", r.Stdout, "ID\tNAME\tENABLED\tLABELS\tAPPLICATION\tLAST RESULT\tLAST RUN\n")
}
