package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testctl/testctl/internal/cmdtest"
)

// run_report's MCP App in a real browser, as a host shows it: the page
// read from the server (resources/read of its ui:// address), in an
// iframe under the strict CSP hosts give apps (nothing from the network,
// inline script and style only), handed the tool's real result by a host
// page that speaks its side of ui/initialize. It renders the verdict, the
// run and its test cases, a service's test case named as markup makes no
// element, and the page logs no error (a CSP violation would be one).
func TestRunReportAppInABrowser(t *testing.T) {
	browser := appBrowser(t)
	e := cmdtest.New(t)
	id := e.StartRun(t, "pln-failing_sandbox")
	e.Run("run", "wait", id).Expect(t, 1)
	a := connect(t, e, true)
	ctx := context.Background()
	res, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_report", Arguments: map[string]any{"run_ids": []string{id}}})
	if err != nil {
		t.Fatal(err)
	}
	// A service that names a test case as markup.
	const hostile = `<img src=x onerror="document.title='owned'">`
	b, _ := json.Marshal(res)
	doc := strings.Replace(string(b), `"name":"Log in with email and password"`, `"name":`+mustJSON(hostile), 1)
	if doc == string(b) {
		t.Fatal("the result names no test case to rename")
	}
	page, err := a.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://testctl/run-report.html"})
	if err != nil || len(page.Contents) != 1 {
		t.Fatalf("reading the app: %v %+v", err, page)
	}

	host := `<!doctype html><title>host</title><iframe id="app" src="/app" width="900" height="700"></iframe>
<script>
const result = ` + doc + `;
const frame = document.getElementById("app");
window.addEventListener("message", (ev) => {
  if (ev.source !== frame.contentWindow) return;
  const m = ev.data || {};
  const reply = (msg) => frame.contentWindow.postMessage(Object.assign({jsonrpc: "2.0"}, msg), "*");
  if (m.method === "ui/initialize") reply({id: m.id, result: {protocolVersion: "2026-01-26", hostInfo: {name: "test host", version: "1"}, hostCapabilities: {}, hostContext: {}}});
  if (m.method === "ui/notifications/initialized") reply({method: "ui/notifications/tool-result", params: result});
});
</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/app" {
			w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'")
			fmt.Fprint(w, page.Contents[0].Text)
			return
		}
		fmt.Fprint(w, host)
	}))
	defer srv.Close()

	bctx := openBrowser(t, browser)
	var mu sync.Mutex
	var problems []string
	err = chromedp.Listen(bctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+ev.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				problems = append(problems, "log: "+ev.Entry.Text)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// The report the app drew (not its script's text, which names the
	// same words), once it has drawn the verdict's heading.
	shown := `(() => { const d = document.getElementById("app").contentDocument; const r = d && d.querySelector("#report"); return r && r.querySelector("h1") ? r.textContent : ""; })()`
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[chromedp.Void](shown+` !== ""`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("the app never showed the result: %v (%q)", err, problems)
	}
	text := evaluate[string](t, bctx, shown)
	images := evaluate[int](t, bctx, `document.getElementById("app").contentDocument.querySelectorAll("img").length`)
	title := evaluate[string](t, bctx, `document.title`)
	for _, want := range []string{"Verdict: failed (exit code 1)", "Run " + id, "COMPLETED · FAILED", hostile, "Evaluation"} {
		if !strings.Contains(text, want) {
			t.Errorf("the app does not show %q:\n%s", want, text)
		}
	}
	if images != 0 || title != "host" {
		t.Errorf("service text made elements: %d <img>, the host's title %q", images, title)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("the page logged errors: %q", problems)
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// appBrowser is the Chromium the app is opened in: under CI it must be
// there (.ci/run installs it), elsewhere its absence skips, saying so.
func appBrowser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{os.Getenv("TESTCTL_BROWSER"), "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); name != "" && err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium found: CI must open the MCP App in a browser; .ci/run installs Debian's chromium")
	}
	t.Skip("skipped: no Chromium found to open the MCP App in (.ci/run installs Debian's chromium; or set TESTCTL_BROWSER)")
	return ""
}

// openBrowser starts a headless Chromium for the test, bounded.
func openBrowser(t *testing.T, browser string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true))
	bounded, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	actx, cancelAlloc := chromedp.NewExecAllocator(bounded, opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(cancelCtx)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("the browser: %v", err)
	}
	return ctx
}

func evaluate[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}
