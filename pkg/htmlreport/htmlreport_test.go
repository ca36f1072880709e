package htmlreport

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/verdict"
)

func render(t *testing.T, r Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// parsed is a rendered page as a browser's parser sees it.
type parsed struct {
	elements []string // every element's name, in document order
	scripts  []*html.Node
	style    string
	csp      string
}

func parse(t *testing.T, page string) parsed {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var p parsed
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			p.elements = append(p.elements, n.Data)
			switch n.Data {
			case "script":
				p.scripts = append(p.scripts, n)
			case "style":
				p.style = text(n)
			case "meta":
				if attr(n, "http-equiv") == "Content-Security-Policy" {
					p.csp = attr(n, "content")
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return p
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(c.Data)
	}
	return b.String()
}

// Whatever the service's text holds, the page's elements are the page's
// own, its only scripts are the data and the report's script, and the data
// decodes back to the text as written.
func TestHostileTextStaysText(t *testing.T) {
	page := render(t, hostileReport())
	p := parse(t, page)
	want := "html head meta meta meta meta title link style body noscript div script script"
	if got := strings.Join(p.elements, " "); got != want {
		t.Errorf("elements:\n got %s\nwant %s", got, want)
	}
	if len(p.scripts) != 2 || attr(p.scripts[0], "type") != "application/json" || attr(p.scripts[0], "id") != DataElementID {
		t.Fatalf("scripts: want the JSON data, then the report's script")
	}
	if text(p.scripts[1]) != reportJS {
		t.Error("the report's script was changed or cut by the data before it")
	}
	if strings.Count(page, "</style") != 1 {
		t.Error("the page closes a style element of its own")
	}
	for _, s := range []string{"<script>window", "<img", "\u2028", "\u2029", "<!--"} {
		if strings.Contains(page, s) {
			t.Errorf("the page holds %q raw: service text must reach it escaped", s)
		}
	}
	var data pageData
	if err := json.Unmarshal([]byte(text(p.scripts[0])), &data); err != nil {
		t.Fatalf("the embedded data is not JSON: %v", err)
	}
	c := data.Runs[0].Cases[0]
	if c.Name != hostile || c.Evaluation != hostile || c.Evidence.APICalls.Entries[0].RequestBody != hostile {
		t.Errorf("hostile text did not round-trip: name %q", c.Name)
	}
	if strings.Count(page, hostile) != 0 || strings.Count(page, `\u003cscript\u003ewindow.pwned=1`) == 0 {
		t.Error("hostile text is not in the data, escaped")
	}
	// The data is embedded once, in one element.
	if n := strings.Count(page, `id="`+DataElementID+`"`); n != 1 {
		t.Errorf("%d data elements, want 1", n)
	}
}

// The page's policy names the hashes of the style and script it holds, and
// allows nothing else: no request can leave the page.
func TestContentSecurityPolicy(t *testing.T) {
	p := parse(t, render(t, failingReport()))
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	for _, want := range []string{
		"default-src 'none'",
		"script-src " + hash(text(p.scripts[1])),
		"style-src " + hash(p.style),
		"img-src data:",
		"base-uri 'none'",
	} {
		if !strings.Contains(p.csp, want) {
			t.Errorf("policy %q lacks %q", p.csp, want)
		}
	}
	if strings.Contains(p.csp, "unsafe") || strings.Contains(p.csp, "http") {
		t.Errorf("policy %q allows more than the page's own style and script", p.csp)
	}
}

// The report's own files must not end the elements they are inlined in.
func TestAssetsStayInTheirElements(t *testing.T) {
	if strings.Contains(strings.ToLower(reportJS), "</script") || strings.Contains(strings.ToLower(reportJS), "<!--") {
		t.Error("report.js holds </script or <!--")
	}
	if strings.Contains(strings.ToLower(reportCSS), "</style") {
		t.Error("report.css holds </style")
	}
	for _, banned := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute('href'", "setAttribute('style'"} {
		if strings.Contains(reportJS, banned) {
			t.Errorf("report.js uses %s: data must only ever reach the page as text", banned)
		}
	}
	for _, fetches := range []string{"url(", "@import", "@font-face"} {
		if strings.Contains(reportCSS, fetches) {
			t.Errorf("report.css uses %s: the page loads nothing", fetches)
		}
	}
}

func TestLinksOnlyForHTTP(t *testing.T) {
	for in, href := range map[string]string{
		"https://app.example.test/runs/r1":              "https://app.example.test/runs/r1",
		"http://localhost:8080/x?a=<b>":                 "http://localhost:8080/x?a=<b>", // an attribute set from script: its value is never markup
		"javascript:alert(1)":                           "",
		"JavaScript:alert(1)":                           "",
		" javascript:alert(1)":                          "",
		"data:text/html,<script>":                       "",
		"/runs/r1":                                      "",
		"//evil.test/x":                                 "",
		"https:/no-host":                                "",
		"vbscript:x":                                    "",
		"https://x.test/" + strings.Repeat("a", maxURL): "", // too long to show whole: not followed
	} {
		if got := newLink(in); got.Href != href || got.Text != clip(in, maxURL) {
			t.Errorf("newLink(%q) = %+v, want href %q", in, got, href)
		}
	}
}

func TestFailuresFirst(t *testing.T) {
	p := buildPage(failingReport())
	if p.Runs[0].Plan != "Checkout" || p.Runs[1].Plan != "Search" {
		t.Errorf("runs in order %q, %q: want the failing run first", p.Runs[0].Plan, p.Runs[1].Plan)
	}
	var classes []string
	for _, c := range p.Runs[0].Cases {
		classes = append(classes, c.Class)
	}
	if got := strings.Join(classes, " "); got != "failed errored flaky skipped passed" {
		t.Errorf("test cases in order %s", got)
	}
	if p.Counts["passed"] != 3 || p.Counts["failed"] != 1 {
		t.Errorf("counts %v", p.Counts)
	}
	flaky := p.Runs[0].Cases[2]
	if flaky.FailedAttempt == nil || flaky.FailedAttempt.Evidence == nil || len(flaky.FailedAttempt.Evidence.Network.Entries) != 12 {
		t.Error("the flaky test case lost its failed attempt's evidence")
	}
	if p.Runs[0].Cases[4].Evidence != nil {
		t.Error("a passed test case carries evidence")
	}
	if len(p.Runs[0].Attempts) != 2 || p.Runs[0].Attempts[0].Link.Href == "" || p.Runs[0].History[0].Duration != "after 07:40" ||
		p.Runs[0].History[1].Duration != "2m43s" { // the run itself has the page's one time for it; earlier runs, the service's
		t.Errorf("attempts %+v, history %+v", p.Runs[0].Attempts, p.Runs[0].History[0])
	}
}

// Past the cap, the entries that show the failure stay, in their order, and
// the others are counted.
func TestEvidenceCapKeepsFailuresFirst(t *testing.T) {
	ev := sampleEvidence("rtc", 1000, true) // 144 failed
	for i := range 300 {
		ev.Console.Entries = append(ev.Console.Entries, api.ConsoleEntry{Level: "info", Message: fmt.Sprint("info ", i)})
	}
	ev.Console.Entries = append(ev.Console.Entries, api.ConsoleEntry{Level: "error", Message: "late error"})
	p := newPageEvidence(ev, newBudget(textBudget))
	net := p.Network
	if len(net.Entries) != maxNetwork || net.LeftOut != 800 || net.Total != 1000 {
		t.Fatalf("network: %d entries, %d left out, total %d", len(net.Entries), net.LeftOut, net.Total)
	}
	failed, last := 0, int64(-1)
	for _, e := range net.Entries {
		if e.Failed {
			failed++
		}
		if *e.StartMs <= last {
			t.Fatal("kept entries are out of their order")
		}
		last = *e.StartMs
	}
	if failed != 144 {
		t.Errorf("%d failed requests kept, want all 144", failed)
	}
	con := p.Console
	if len(con.Entries) != maxConsole || con.Entries[len(con.Entries)-1].Message != "late error" || con.LeftOut != 104 {
		t.Errorf("console: %d entries, last %q, %d left out", len(con.Entries), con.Entries[len(con.Entries)-1].Message, con.LeftOut)
	}
}

func TestLongTextsAreClipped(t *testing.T) {
	big := strings.Repeat("é", 100_000) // two bytes each: cuts land inside one
	ev := &evidence.Case{APICalls: evidence.Part[api.APICallEntry]{Entries: []api.APICallEntry{{RequestBody: big, ResponseBody: "ok"}}}}
	b := newBudget(textBudget)
	p := newPageEvidence(ev, b)
	a := p.APICalls.Entries[0]
	if !a.RequestClipped || a.ResponseClipped || len(a.RequestBody) > maxBody+len("…") || !strings.HasSuffix(a.RequestBody, "é…") {
		t.Errorf("request body of %d bytes, clipped %v; response clipped %v", len(a.RequestBody), a.RequestClipped, a.ResponseClipped)
	}
	// Once the budget is spent, texts are kept short.
	b.left = 0
	p = newPageEvidence(ev, b)
	if n := len(p.APICalls.Entries[0].RequestBody); n > clippedText+len("…") || !b.exhausted {
		t.Errorf("past the budget a body keeps %d bytes", n)
	}
	if got := clip("ab€", 3); got != "ab…" {
		t.Errorf("clip cut a character: %q", got)
	}
}

func TestWriteReplacesTheFileWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, failingReport()); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	b, _ := os.ReadFile(path)
	if !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) || !bytes.HasSuffix(b, []byte("</html>\n")) {
		t.Error("the file is not the whole page")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the directory: %v", entries)
	}
	err = Write(filepath.Join(dir, "missing", "report.html"), failingReport())
	if err == nil || !strings.Contains(err.Error(), "missing/report.html") {
		t.Errorf("writing into a missing directory: %v", err)
	}
}

// The size bound of issue #21, checked on every test run; the time is the
// benchmark's (BenchmarkWrite50x1000), logged here.
func TestLargeReportStaysSmall(t *testing.T) {
	r := largeReport(50, 1000)
	path := filepath.Join(t.TempDir(), "report.html")
	start := time.Now()
	if err := Write(path, r); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	st, _ := os.Stat(path)
	t.Logf("50 test cases × 1,000 network requests: %.2f MB written in %v", float64(st.Size())/1e6, took.Round(time.Millisecond))
	if st.Size() >= 5e6 {
		t.Errorf("%d bytes, want under 5 MB", st.Size())
	}
}

// Whatever text the service sends, the page's elements stay its own and
// the text comes back from the data as it was sent (as valid UTF-8).
func FuzzServiceTextStaysText(f *testing.F) {
	for _, s := range []string{hostile, "</script>", "<!--<script>", "\u2028", "</SCRIPT >", "\xff\xfe<", "]]>", "javascript:alert(1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		r := Report{Verdict: "FAILED", Runs: []Run{{PlanName: s, URL: s, Cases: []Case{{Name: s, Class: verdict.Failed, Evaluation: s,
			Evidence: &evidence.Case{Console: evidence.Part[api.ConsoleEntry]{Entries: []api.ConsoleEntry{{Level: s, Message: s}}}}}}}}}
		p := parse(t, render(t, r))
		if got := strings.Join(p.elements, " "); got != "html head meta meta meta meta title link style body noscript div script script" {
			t.Fatalf("text %q changed the page's elements: %s", s, got)
		}
		var data pageData
		if err := json.Unmarshal([]byte(text(p.scripts[0])), &data); err != nil {
			t.Fatal(err)
		}
		if want := clip(s, maxName); data.Runs[0].Cases[0].Name != want {
			t.Fatalf("name %q came back as %q", want, data.Runs[0].Cases[0].Name)
		}
	})
}

// A run is placed by how the verdict says it ended, whatever its test
// cases: a plan that did not start first, as the cause, then the runs that
// failed, errored, did not finish, passed. They are counted apart.
func TestRunsSortByTheirClass(t *testing.T) {
	p := buildPage(Report{Runs: []Run{
		{PlanName: "passed", Class: verdict.Passed},
		{PlanName: "running", Class: verdict.NotRun},
		{PlanName: "failed", Class: verdict.Failed, Cases: []Case{{Name: "a", Class: verdict.Passed}}},
		{PlanName: "errored", Class: verdict.Errored},
		{PlanName: "not started", Class: verdict.Errored, NotStarted: true, Problem: "the start failed: HTTP 500"},
	}})
	var got []string
	for _, r := range p.Runs {
		got = append(got, r.Plan+" "+r.Class)
	}
	if strings.Join(got, ", ") != "not started errored, failed failed, errored errored, running notrun, passed passed" {
		t.Errorf("runs in order %q", got)
	}
	if p.RunsText != "4 runs · 1 plan not started" {
		t.Errorf("runs counted %q", p.RunsText)
	}
	if strings.Join(p.Failing, " ") != "failed errored" {
		t.Errorf("the Failed filter shows %q, want the classes that do not pass", p.Failing)
	}
}

// However much the service sends, the report stays a few megabytes: past
// the text budget, texts are clipped short and few entries kept.
func TestHugeEvidenceStaysBounded(t *testing.T) {
	r := largeReport(50, 1000)
	long := strings.Repeat("x", 2000)
	body := strings.Repeat("b", 100_000)
	for i := range r.Runs[0].Cases {
		c := &r.Runs[0].Cases[i]
		c.Evaluation = body
		for j := range c.Evidence.Network.Entries {
			c.Evidence.Network.Entries[j].URL += long
		}
		for range 1000 {
			c.Evidence.Console.Entries = append(c.Evidence.Console.Entries, api.ConsoleEntry{Level: "error", Message: long + long})
		}
		for range 100 {
			c.Evidence.APICalls.Entries = append(c.Evidence.APICalls.Entries, api.APICallEntry{URL: long, RequestBody: body, ResponseBody: body})
		}
	}
	var b bytes.Buffer
	if err := Render(&b, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("50 test cases, each with 1,000 requests, 1,000 console errors and 100 API calls of 2 x 100 kB: %.2f MB", float64(b.Len())/1e6)
	if b.Len() >= 5e6 {
		t.Errorf("%d bytes, want under 5 MB", b.Len())
	}
	if !strings.Contains(b.String(), `"clipped":true`) {
		t.Error("the page is not told that its size limit was reached")
	}
}

// Escape sequences and control characters from the service never reach
// the page: a coloured console message shows as its words.
func TestServiceTextIsSanitised(t *testing.T) {
	r := failingReport()
	r.Runs[0].PlanName = "Checkout \x1b[31mred\x1b[0m \u202eevil"
	var b strings.Builder
	if err := Render(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{`\u001b`, "\x1b", `\u202e`, "\u202e"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page carries %q", bad)
		}
	}
	if !strings.Contains(page, "Checkout red evil") {
		t.Error("the plan's name lost its words")
	}
}

// The text budget counts every text of a test case, its name and result
// title too: 400 failed test cases with 16 KiB titles and 1 KiB names (a
// report of 9.6 MB when they did not count) stay a few megabytes, the test
// cases shown first keep their texts whole, and those past the budget keep
// short ones.
func TestLongTitlesStayWithinTheBudget(t *testing.T) {
	r := largeReport(400, 40)
	for i := range r.Runs[0].Cases {
		c := &r.Runs[0].Cases[i]
		c.Name = fmt.Sprintf("%03d ", i) + strings.Repeat("n", maxName-4)
		c.ResultTitle = fmt.Sprintf("%03d ", i) + strings.Repeat("t", maxEvaluation-4)
	}
	var b bytes.Buffer
	if err := Render(&b, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("400 failed test cases with 16 KiB titles and 1 KiB names: %.2f MB", float64(b.Len())/1e6)
	if b.Len() >= 5e6 {
		t.Errorf("%d bytes, want under 5 MB", b.Len())
	}
	p := buildPage(r)
	for i, c := range p.Runs[0].Cases[:10] {
		if src := r.Runs[0].Cases[i]; c.Name != src.Name || c.ResultTitle != src.ResultTitle {
			t.Fatalf("test case %d lost text: a name of %d bytes, a title of %d", i, len(c.Name), len(c.ResultTitle))
		}
	}
	last := p.Runs[0].Cases[399]
	if len(last.Name) > clippedText+len("…") || len(last.ResultTitle) > clippedText+len("…") || !p.Limits.Clipped {
		t.Errorf("past the budget a name keeps %d bytes, a title %d (clipped %v)", len(last.Name), len(last.ResultTitle), p.Limits.Clipped)
	}
}

// The page takes every class from the verdict: no Go file of this package
// nor the page's script names a status or a result to compare with.
func TestThePageDoesNotClassify(t *testing.T) {
	goFiles, _ := filepath.Glob("*.go")
	jsFiles, _ := filepath.Glob("assets/js/*.js")
	if len(jsFiles) == 0 {
		t.Fatal("no script found")
	}
	statusWords := regexp.MustCompile(`["'](PASSED|FAILED|SKIPPED|COMPLETED|ERROR|CANCELLED|RUNNING|INITIATED)["']|api\.(Result|Status)[A-Z]`)
	for _, f := range append(goFiles, jsFiles...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := statusWords.FindAllString(string(src), -1); len(m) > 0 {
			t.Errorf("%s names statuses or results: %q; the class of each run and test case is the verdict's, in the data", f, m)
		}
	}
}

// The entries the evaluation names are marked on the page, and kept first
// when a kind has more entries than the page embeds.
func TestEntriesTheEvaluationNamesAreMarkedAndKept(t *testing.T) {
	ev := &evidence.Case{Target: evidence.Target{EvaluationThought: "POST /api/payments returned 502 and the console shows an uncaught TypeError"}}
	for i := range maxNetwork + 10 {
		ev.Network.Entries = append(ev.Network.Entries, api.NetworkEntry{Method: "GET", URL: fmt.Sprintf("https://shop.invalid/img/%d.png", i), StatusCode: 404})
	}
	ev.Network.Entries = append(ev.Network.Entries, api.NetworkEntry{Method: "POST", URL: "https://shop.invalid/api/payments", StatusCode: 502})
	ev.Console.Entries = []api.ConsoleEntry{{Level: "error", Message: "Uncaught TypeError: x is undefined"}, {Level: "error", Message: "Failed to load resource"}}
	p := newPageEvidence(ev, newBudget(textBudget))
	named := 0
	for _, n := range p.Network.Entries {
		if n.Named {
			named++
			if n.Path != "/api/payments" {
				t.Errorf("%s marked as named", n.Path)
			}
		}
	}
	if named != 1 || p.Network.LeftOut != 11 {
		t.Errorf("%d named requests kept (want the payment's), %d left out", named, p.Network.LeftOut)
	}
	if !p.Console.Entries[0].Named || p.Console.Entries[1].Named {
		t.Errorf("console marks: %+v", p.Console.Entries)
	}
}

// The request column shows the path: the application's own host (the one
// that answered most requests) is left out, a third party's is kept, and
// the whole URL stays in the data for the tooltip (given whole, or as the
// part's origin and the path).
func TestRequestColumnKeepsThePath(t *testing.T) {
	ev := &evidence.Case{}
	urls := []string{"https://shop.invalid/api/cart", "https://shop.invalid/api/payments?card=1", "https://tracker.invalid/collect", "https://shop.invalid/#top"}
	for _, u := range urls {
		ev.Network.Entries = append(ev.Network.Entries, api.NetworkEntry{Method: "GET", URL: u, StatusCode: 200})
		ev.APICalls.Entries = append(ev.APICalls.Entries, api.APICallEntry{Method: "GET", URL: u, StatusCode: ptr(int32(200))})
	}
	ev.Network.Entries[2].StatusCode = 0 // never answered: not the application's host
	ev.APICalls.Entries[2].StatusCode = nil
	p := newPageEvidence(ev, newBudget(textBudget))
	whole := func(origin, url, path string) string {
		if url == "" {
			return origin + path
		}
		return url
	}
	want := []string{"/api/cart", "/api/payments?card=1", "tracker.invalid/collect", "/"}
	for i, w := range want {
		if n := p.Network.Entries[i]; n.Path != w || whole(p.Network.Origin, n.URL, n.Path) != urls[i] {
			t.Errorf("request %d shows %q (whole %q), want %q (%s)", i, n.Path, whole(p.Network.Origin, n.URL, n.Path), w, urls[i])
		}
		if a := p.APICalls.Entries[i]; a.Path != w || whole(p.APICalls.Origin, a.URL, a.Path) != urls[i] {
			t.Errorf("API call %d shows %q (whole %q), want %q (%s)", i, a.Path, whole(p.APICalls.Origin, a.URL, a.Path), w, urls[i])
		}
	}
}
