package htmlreport_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/htmlreport"
	"github.com/testctl/testctl/pkg/sandbox"
)

// The report testctl writes for a failing sandbox run, opened in a real
// browser: nothing leaves the page, nothing is written to its console
// (OpenFile checks both), the failed test cases come first and each has a
// network waterfall with a bar per request.
func TestBrowserReportOfAFailingSandboxRun(t *testing.T) {
	browser := htmlreport.BrowserPath(t)
	e := cmdtest.New(t)
	path := e.Dir + "/report.html"
	e.Run("run", "start", "--plan", sandbox.PlanFailing, "--wait", "--html", path).Expect(t, 1)
	p := htmlreport.OpenFile(t, browser, path)
	classes := htmlreport.EvalStrings(t, p, `[...document.querySelectorAll('details.case')].map(d => d.classList[1])`)
	if len(classes) != 7 || classes[0] != "failed" || classes[1] != "failed" || classes[len(classes)-1] != "passed" {
		t.Errorf("test cases in the page's order: %q, want the two failures first", classes)
	}
	if n := htmlreport.EvalInt(t, p, `document.querySelectorAll('.wf').length`); n < 1 {
		t.Error("no network waterfall for the failed test cases")
	}
	rows := htmlreport.EvalInt(t, p, `[...document.querySelectorAll('.wf')].reduce((n, w) => n + w.querySelectorAll('.wf-row').length, 0)`)
	bars := htmlreport.EvalInt(t, p, `document.querySelectorAll('.wf rect.bar').length`)
	if rows == 0 || bars != rows {
		t.Errorf("%d requests in the waterfalls, %d bars: want a bar per request", rows, bars)
	}
	text := htmlreport.EvalStrings(t, p, `[document.body.innerText]`)[0]
	for _, want := range []string{"Pay with a declined card", "/api/payments", "Uncaught TypeError"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
	// The request column shows the application's requests by their path
	// (a narrow column cuts its end, so the host would hide the path); the
	// whole URL is the row's tooltip.
	shown := htmlreport.EvalStrings(t, p, `[...document.querySelectorAll('.wf-row')].filter(r => r.title.startsWith('POST ') && r.title.includes('/api/payments')).map(r => r.querySelector('.u').textContent + ' | ' + r.title.split('\n')[0])`)
	if len(shown) == 0 {
		t.Fatal("no POST /api/payments row in the waterfalls")
	}
	for _, s := range shown {
		col, title, _ := strings.Cut(s, " | ")
		if col != "/api/payments" || !strings.HasPrefix(title, "POST http") {
			t.Errorf("request column %q (tooltip %q), want the path /api/payments, the whole URL on hover", col, title)
		}
	}
}

// A report written after the wait timed out is marked partial.
func TestBrowserReportAfterATimeoutIsPartial(t *testing.T) {
	browser := htmlreport.BrowserPath(t)
	e := cmdtest.New(t)
	path := e.Dir + "/report.html"
	e.Run("run", "start", "--plan", sandbox.PlanSlow, "--wait", "--timeout", "1m", "--html", path).Expect(t, 7)
	p := htmlreport.OpenFile(t, browser, path)
	text := htmlreport.EvalStrings(t, p, `[document.body.innerText]`)[0]
	if !strings.Contains(strings.ToLower(text), "partial") {
		t.Errorf("the report of a wait that timed out is not marked partial:\n%.400s", text)
	}
}
