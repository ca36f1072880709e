package htmlreport_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/htmlreport"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/verdict"
)

// The page draws what verdict.Decide decided, opened in a real browser:
// these reports are written by report.WriteHTMLFile from records, the way
// run wait writes them, so the page and the exit code cannot disagree.

func result(s string) *string { return &s }

func rtc(short, name, status, res string) api.RunTestCase {
	return api.RunTestCase{ShortID: short, Name: name, Status: status, Result: res}
}

// openVerdict writes the report of the records and opens it; want is the
// exit code the records must give, checked first so that a test states
// the verdict it draws.
func openVerdict(t *testing.T, browser string, want int, recs ...verdict.Record) *htmlreport.Page {
	t.Helper()
	v := verdict.Decide(recs, verdict.Options{})
	if v.Code != want {
		t.Fatalf("the records give exit %d, want %d", v.Code, want)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	at := time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC)
	if err := report.WriteHTMLFile(path, v, nil, nil, func() time.Time { return at }, report.Resume{}); err != nil {
		t.Fatal(err)
	}
	return htmlreport.OpenFile(t, browser, path)
}

// cssColour is a colour variable of the page's style as the browser
// computes a colour: "rgb(26, 127, 55)".
func cssColour(t *testing.T, p *htmlreport.Page, name string) string {
	t.Helper()
	hex := strings.TrimPrefix(strings.TrimSpace(htmlreport.EvalStrings(t, p,
		`[getComputedStyle(document.documentElement).getPropertyValue('`+name+`')]`)[0]), "#")
	n, err := strconv.ParseUint(hex, 16, 32)
	if err != nil || len(hex) != 6 {
		t.Fatalf("colour %s is %q", name, hex)
	}
	return fmt.Sprintf("rgb(%d, %d, %d)", n>>16, n>>8&0xff, n&0xff)
}

// A run that ended COMPLETED with a result testctl does not know fails the
// verdict (exit 1): the page must not draw it green.
func TestBrowserRunOfAnUnknownResultIsNotGreen(t *testing.T) {
	browser := htmlreport.BrowserPath(t)
	p := openVerdict(t, browser, 1, verdict.Record{
		ShortID: "r-blk", URL: "https://app.example.test/runs/r-blk", Plan: verdict.Plan{Name: "Checkout", ShortID: "pln-checkout"},
		Detail: &api.RunDetail{ShortID: "r-blk", Status: api.StatusCompleted, Result: result("BLOCKED"), RunTestCases: []api.RunTestCase{
			rtc("r-blk-1", "Open the cart", api.StatusCompleted, api.ResultPassed),
			rtc("r-blk-2", "Pay", api.StatusCompleted, api.ResultPassed),
		}},
	})
	green := cssColour(t, p, "--passed")
	edge := htmlreport.EvalStrings(t, p, `[getComputedStyle(document.querySelector('section.run')).borderLeftColor]`)[0]
	if edge == green {
		t.Errorf("the run the verdict failed (exit 1) is drawn green (%s)", edge)
	}
	if want := cssColour(t, p, "--failed"); edge != want {
		t.Errorf("the failed run's edge is %s, want the failed colour %s", edge, want)
	}
	pill := htmlreport.EvalStrings(t, p, `[...document.querySelectorAll('section.run .run-head .pill')].map(e => e.textContent + '|' + getComputedStyle(e).color)`)
	if len(pill) != 1 || !strings.HasPrefix(pill[0], "COMPLETED · BLOCKED|") || strings.HasSuffix(pill[0], green) {
		t.Errorf("the run's status pill: %q, want COMPLETED · BLOCKED, not green", pill)
	}
	if word := htmlreport.EvalStrings(t, p, `[document.querySelector('.verdict').className, document.querySelector('.verdict-word').textContent]`); word[0] != "verdict failed" || word[1] != "BLOCKED" {
		t.Errorf("headline %q, want the run's result BLOCKED, coloured failed", word)
	}
}

// After --timeout (exit 7) the runs go on: the page is headlined as the
// verdict says, with the way to resume, and the test cases still running
// are not run, not failed.
func TestBrowserReportOfATimeoutSaysSo(t *testing.T) {
	browser := htmlreport.BrowserPath(t)
	p := openVerdict(t, browser, 7, verdict.Record{
		ShortID: "r-slow", Plan: verdict.Plan{Name: "Slow", ShortID: "pln-slow"}, Stop: verdict.TimedOut,
		Detail: &api.RunDetail{ShortID: "r-slow", Status: api.StatusRunning, RunTestCases: []api.RunTestCase{
			rtc("r-slow-1", "Log in", api.StatusCompleted, api.ResultPassed),
			rtc("r-slow-2", "Browse", api.StatusRunning, ""),
			rtc("r-slow-3", "Check out", api.StatusInitiated, ""),
		}},
	})
	head := htmlreport.EvalStrings(t, p, `[document.querySelector('.verdict').className, document.querySelector('.verdict-word').textContent, document.querySelector('.verdict .exit').textContent]`)
	if head[0] != "verdict notrun" || head[1] != "TIMED OUT" || head[2] != "exit code 7" {
		t.Errorf("headline %q, want TIMED OUT (exit code 7), coloured not run", head)
	}
	counts := htmlreport.EvalStrings(t, p, `[...document.querySelectorAll('.counts .count')].map(e => e.textContent)`)
	if strings.Join(counts, ", ") != "2 not run, 1 passed" {
		t.Errorf("counts %q, want 2 not run, 1 passed", counts)
	}
	if f := htmlreport.EvalStrings(t, p, `[document.querySelector('button[data-filter=failed]').textContent]`)[0]; f != "Failed 0" {
		t.Errorf("the filter button says %q: test cases still running are not failures", f)
	}
	shown := htmlreport.EvalInt(t, p, `document.querySelector('button[data-filter=failed]').click(); [...document.querySelectorAll('details.case')].filter(d => !d.hidden).length`)
	if shown != 0 {
		t.Errorf("the Failed filter shows %d test cases, want none", shown)
	}
	banner := htmlreport.EvalStrings(t, p, `[...document.querySelectorAll('.banner')].map(e => e.textContent)`)
	if len(banner) == 0 || !strings.Contains(banner[0], "the wait timed out") || !strings.Contains(banner[0], "The run goes on; resume waiting with") ||
		!strings.Contains(banner[0], "testctl run wait r-slow") {
		t.Errorf("banner %q, want the reason and the command that resumes the wait", banner)
	}
}

// With a plan that never started (exit 5), the page opens with it, as the
// terminal and the step summary do: it is why the command failed. The runs
// are counted as started.
func TestBrowserPlanNotStartedComesFirst(t *testing.T) {
	browser := htmlreport.BrowserPath(t)
	passed := &api.RunDetail{ShortID: "r-a", Status: api.StatusCompleted, Result: result(api.ResultPassed),
		RunTestCases: []api.RunTestCase{rtc("r-a-1", "Search", api.StatusCompleted, api.ResultPassed)}}
	failed := &api.RunDetail{ShortID: "r-b", Status: api.StatusCompleted, Result: result(api.ResultFailed),
		RunTestCases: []api.RunTestCase{rtc("r-b-1", "Pay", api.StatusCompleted, api.ResultFailed)}}
	p := openVerdict(t, browser, 5,
		verdict.Record{ShortID: "r-a", Plan: verdict.Plan{Name: "Search", ShortID: "pln-search"}, Detail: passed},
		verdict.Record{ShortID: "r-b", Plan: verdict.Plan{Name: "Checkout", ShortID: "pln-checkout"}, Detail: failed},
		verdict.NotStartedRecord(verdict.Plan{ShortID: "pln-chekout"}, &api.HTTPError{StatusCode: 404, Message: "test plan not found"}),
	)
	titles := htmlreport.EvalStrings(t, p, `[...document.querySelectorAll('section.run h2')].map(e => e.textContent)`)
	if strings.Join(titles, ", ") != "pln-chekout, Checkout, Search" {
		t.Errorf("runs in the page's order: %q, want the plan not started first, then failures first", titles)
	}
	if sub := htmlreport.EvalStrings(t, p, `[document.querySelector('.meta .sub').textContent]`)[0]; !strings.HasPrefix(sub, "2 runs · 1 plan not started") {
		t.Errorf("the page counts %q, want 2 runs · 1 plan not started", sub)
	}
	if problem := htmlreport.EvalStrings(t, p, `[document.querySelector('section.run .problem').textContent]`)[0]; !strings.Contains(problem, "the start failed") {
		t.Errorf("the plan not started says %q", problem)
	}
}
