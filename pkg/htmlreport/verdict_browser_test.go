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
	if err := report.WriteHTMLFile(path, v, nil, nil, func() time.Time { return at }); err != nil {
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
}
