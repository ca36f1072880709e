package htmlreport

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browserPath finds a Chromium to open the reports in. Locally a missing
// browser skips the browser tests, saying so; under CI it fails them, since
// .ci/run installs one and a skip there would hide a broken page.
func browserPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("TESTCTL_BROWSER"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium found (chromium, chromium-browser, google-chrome; or TESTCTL_BROWSER): CI must run the browser tests; .ci/run installs Debian's chromium")
	}
	t.Skip("skipped: no Chromium found to open the reports in a real browser (.ci/run installs Debian's chromium; or set TESTCTL_BROWSER to a Chrome binary)")
	return ""
}

// page is a report opened in a headless browser, with everything the page
// asked of the network and wrote to its console.
type page struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	console  []string
	ready    time.Duration // from the navigation to the page's ready mark
	marks    string        // the page's own marks, for the log
}

func openReport(t *testing.T, browser string, r Report, width int) *page {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	if err := Write(path, r); err != nil {
		t.Fatal(err)
	}
	return openFile(t, browser, path, width)
}

// openFile opens a report file in a headless browser and fails the test
// if the page asks the network for anything or writes to its console.
func openFile(t *testing.T, browser, path string, width int) *page {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.WindowSize(width, 900), chromedp.Flag("disable-gpu", true))
	// A browser that hangs ends the test, not the whole go test run.
	bounded, cancelBound := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancelBound)
	var ctx context.Context
	for attempt := 1; ; attempt++ {
		actx, cancelAlloc := chromedp.NewExecAllocator(bounded, opts...)
		t.Cleanup(cancelAlloc)
		var cancel context.CancelFunc
		ctx, cancel = chromedp.NewContext(actx)
		t.Cleanup(cancel)
		// Started now, and once more if it fails to: on a loaded machine
		// chromium sometimes never prints where it listens in time.
		err := chromedp.Do(ctx) // no step: it only starts the browser
		if err == nil {
			break
		}
		if attempt == 2 || !strings.Contains(err.Error(), "failed to start") {
			t.Fatalf("the browser: %v", err)
		}
		t.Logf("the browser did not start, trying again: %v", err)
	}
	p := &page{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			p.requests = append(p.requests, ev.Request.URL)
		case *runtime.EventConsoleAPICalled:
			p.console = append(p.console, fmt.Sprintf("console.%s", ev.Type))
		case *runtime.EventExceptionThrown:
			p.console = append(p.console, "exception: "+ev.ExceptionDetails.Text)
			if ev.ExceptionDetails.Exception != nil {
				p.console[len(p.console)-1] += " " + ev.ExceptionDetails.Exception.Description
			}
		case *log.EventEntryAdded:
			// CSP violations and failed loads land here.
			p.console = append(p.console, fmt.Sprintf("log %s (%s): %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	fileURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL)); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	_, err = chromedp.Run(wctx, chromedp.Poll[chromedp.Void](`document.documentElement.dataset.painted`, chromedp.WithPollingInterval(5*time.Millisecond)))
	if err != nil {
		t.Fatalf("the page never marked itself ready: %v (console: %q)", err, p.console)
	}
	p.ready = time.Since(start)
	p.marks, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`const d = document.documentElement.dataset; 'data parsed ' + d.parsed + ' ms, drawn ' + d.ready + ' ms, painted ' + d.painted + ' ms'`))
	// Let late events (a load the page would start after drawing) arrive.
	time.Sleep(200 * time.Millisecond)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, u := range p.requests {
		if u != fileURL {
			t.Errorf("the page requested %q; the only request must be the file itself", u)
		}
	}
	if len(p.console) > 0 {
		t.Errorf("the page wrote to the console: %q", p.console)
	}
	return p
}

func eval[T any](t *testing.T, p *page, js string) T {
	t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

func TestBrowserFailingRun(t *testing.T) {
	browser := browserPath(t)
	p := openReport(t, browser, failingReport(), 1280)
	t.Logf("page ready %v after navigation (page's own clock: %s)", p.ready.Round(time.Millisecond), p.marks)
	screenshot(t, p, "failing", true)

	classes := eval[[]string](t, p, `[...document.querySelectorAll('details.case')].map(d => d.classList[1])`)
	want := []string{"failed", "errored", "flaky", "skipped", "passed", "passed", "passed"}
	if strings.Join(classes, " ") != strings.Join(want, " ") {
		t.Errorf("test cases in the page's order: %q, want failures first: %q", classes, want)
	}
	first := eval[string](t, p, `document.querySelector('details.case .name').textContent`)
	if first != "Pay with a saved card" {
		t.Errorf("first test case %q, want the failed one", first)
	}
	// Each waterfall: a bar per request, its failed requests marked.
	bars := eval[[][]int](t, p, `[...document.querySelectorAll('.wf')].map(w => [w.querySelectorAll('.wf-row').length, w.querySelectorAll('rect.bar').length, w.querySelectorAll('rect.bar.failed').length])`)
	if len(bars) != 2 || bars[0][0] != 40 || bars[0][1] != 40 || bars[1][1] != 12 {
		t.Errorf("waterfalls [rows, bars, failed bars] = %v, want 40 bars for the failed case, then 12 for the flaky one's failed attempt", bars)
	}
	if len(bars) > 0 && bars[0][2] != 7 {
		t.Errorf("failed bars = %d, want 7 (every seventh request and the one never answered)", bars[0][2])
	}
	// The entries the evaluation names ("POST /api/v1/payments answered 500
	// and … an uncaught TypeError") are marked: the 500s of the waterfall,
	// the TypeError, the payment's API call, and nothing else.
	named := eval[[]int](t, p, `(w => [w.querySelectorAll('.wf-row.named .named-mark').length,
		w.closest('details.case').querySelectorAll('table.console tr.named .named-mark').length,
		w.closest('details.case').querySelectorAll('details.api.named .named-mark').length])(document.querySelector('.wf'))`)
	if len(named) != 3 || named[0] != 6 || named[1] != 1 || named[2] != 1 {
		t.Errorf("marks of what the evaluation names [requests, console, API calls] = %v, want [6 1 1]", named)
	}
	if n := eval[int](t, p, `document.querySelectorAll('.sidebyside .col').length`); n != 2 {
		t.Errorf("the flaky test case shows %d attempts side by side, want 2", n)
	}
	if n := eval[int](t, p, `document.querySelectorAll('.hist').length`); n != 20 {
		t.Errorf("history marks = %d, want 8 + 12", n)
	}
	// The filter and the search hide what does not match.
	shown := eval[int](t, p, `document.querySelector('button[data-filter=failed]').click(); [...document.querySelectorAll('details.case')].filter(d => !d.hidden).length`)
	if shown != 2 {
		t.Errorf("Failed filter shows %d test cases, want 2 (failed and errored)", shown)
	}
	shown = eval[int](t, p, `document.querySelector('button[data-filter=all]').click(); const s = document.querySelector('.search'); s.value = 'coupon'; s.dispatchEvent(new Event('input')); [...document.querySelectorAll('details.case')].filter(d => !d.hidden).length`)
	if shown != 1 {
		t.Errorf("searching 'coupon' shows %d test cases, want 1", shown)
	}
	if hidden := eval[bool](t, p, `document.querySelectorAll('section.run')[1].hidden`); !hidden {
		t.Error("the run with no test case matching the search is still shown")
	}
}

func TestBrowserHostileText(t *testing.T) {
	browser := browserPath(t)
	p := openReport(t, browser, hostileReport(), 1280)
	if v := eval[string](t, p, `String(window.pwned)`); v != "undefined" {
		t.Errorf("a script from service text ran: window.pwned = %s", v)
	}
	if title := eval[string](t, p, `document.title`); title != "testctl report: FAILED" {
		t.Errorf("document.title = %q", title)
	}
	if n := eval[int](t, p, `document.querySelectorAll('img, iframe, object, embed, body script:not(#testctl-report-data)').length`); n != 1 {
		t.Errorf("%d img/iframe/script elements, want only the report's own script", n)
	}
	hrefs := eval[[]string](t, p, `[...document.querySelectorAll('a')].map(a => a.getAttribute('href'))`)
	for _, h := range hrefs {
		if !strings.HasPrefix(h, "https://") && !strings.HasPrefix(h, "http://") {
			t.Errorf("a link to %q: only http(s) URLs may be links", h)
		}
	}
	// The text shows as written, with its markup visible.
	name := eval[string](t, p, `document.querySelector('details.case .name').textContent`)
	if name != hostile {
		t.Errorf("the test case's name shows as %q, want it as written: %q", name, hostile)
	}
	if !eval[bool](t, p, `document.body.textContent.includes('javascript:window.pwned=5')`) {
		t.Error("a javascript: run URL is not shown as text")
	}
	if banner := eval[string](t, p, `document.querySelector('.banner').textContent`); !strings.Contains(banner, "Partial report") || !strings.Contains(banner, "SIGTERM") {
		t.Errorf("partial report banner: %q", banner)
	}
	// Requests without a start time are laid one after another, marked.
	xs := eval[[]string](t, p, `[...document.querySelector('.wf').querySelectorAll('rect.bar.untimed')].map(r => r.getAttribute('x'))`)
	if len(xs) != 3 || !(parsePct(xs[0]) < parsePct(xs[1]) && parsePct(xs[1]) < parsePct(xs[2])) {
		t.Errorf("untimed bars at x = %q, want 3, one after another", xs)
	}
	screenshot(t, p, "hostile", true)
}

func parsePct(s string) float64 {
	var f float64
	fmt.Sscanf(s, "%g%%", &f)
	return f
}

// TestBrowserLargeReport opens the 50 × 1,000 report and logs how soon it
// is ready; the bound asserted is generous, the figure is what to read.
func TestBrowserLargeReport(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: the large report takes a browser a second or two")
	}
	browser := browserPath(t)
	p := openReport(t, browser, largeReport(50, 1000), 1280)
	t.Logf("50 test cases × 1,000 network requests: page ready %v after navigation (page's own clock: %s)", p.ready.Round(time.Millisecond), p.marks)
	if p.ready > 10*time.Second {
		t.Errorf("page ready after %v, want well under 2 s (10 s asserted, for loaded machines)", p.ready)
	}
	if n := eval[int](t, p, `document.querySelector('.wf').querySelectorAll('rect.bar').length`); n != maxNetwork {
		t.Errorf("%d bars in the first waterfall, want %d (the cap per test case)", n, maxNetwork)
	}
	// Evidence further down is drawn as it comes near the screen.
	eval[bool](t, p, `document.querySelectorAll('details.case')[49].scrollIntoView(), true`)
	wctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[bool](`document.querySelectorAll('details.case')[49].querySelectorAll('rect.bar').length === 200`)); err != nil {
		t.Errorf("the last test case's waterfall was not drawn when scrolled to: %v", err)
	}
	screenshot(t, p, "large", false)
}

// screenshot saves the page's first screen (and, when whole, all of it) as
// PNGs in $HTMLREPORT_SCREENSHOTS, when set, for a person to look at.
func screenshot(t *testing.T, p *page, name string, whole bool) {
	dir := os.Getenv("HTMLREPORT_SCREENSHOTS")
	if dir == "" {
		return
	}
	top, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	shots := map[string][]byte{name + "-top.png": top}
	if whole {
		full, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		shots[name+".png"] = full
	}
	for file, png := range shots {
		if err := os.WriteFile(filepath.Join(dir, file), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
