package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/verdict"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	nethtml "golang.org/x/net/html"
)

// parseGitHubOutput reads a $GITHUB_OUTPUT file the way the runner does:
// name=value lines, or name<<DELIM, value lines, DELIM.
func parseGitHubOutput(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if name, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			if i == len(lines) {
				t.Fatalf("heredoc %s never closed:\n%s", name, s)
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(lines[i], "=")
		if !ok {
			t.Fatalf("malformed output line %q", lines[i])
		}
		out[name] = val
	}
	return out
}

func TestWorkflowCommandEscaping(t *testing.T) {
	// A lone \r is dropped by the sanitiser before it could be escaped.
	if got := escapeData("50% done\r\nnext\x1b[2J"); got != "50%25 done%0Anext" {
		t.Errorf("data: %q", got)
	}
	if got := escapeProperty("run r1: a, b\n"); got != "run r1%3A a%2C b%0A" {
		t.Errorf("property: %q", got)
	}
}

func TestAnnotationsOnePerFailedCase(t *testing.T) {
	d := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{Name: "ok", Status: api.StatusCompleted, Result: api.ResultPassed},
		{Name: "Coupon, expired: 100%", Status: api.StatusCompleted, Result: api.ResultFailed, ResultTitle: "accepted", EvaluationThought: "total dropped\nno error"},
		{Name: "skip", Status: api.StatusCompleted, Result: api.ResultSkipped},
		{Name: "env", Status: api.StatusError, ResultTitle: "down"},
	}}
	var buf bytes.Buffer
	stated := decide([]verdict.Record{{ShortID: "r1", URL: "https://x/r1", Detail: d}})
	WriteAnnotations(&buf, stated, stated.Code, nil, Resume{})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d annotations, want 3:\n%s", len(lines), buf.String())
	}
	if lines[2] != "::warning title=testctl run r1%3A skip::SKIPPED%0Ahttps://x/r1" {
		t.Errorf("a skip that passes the run is a warning: %s", lines[2])
	}
	want := "::error title=testctl run r1%3A Coupon%2C expired%3A 100%25::FAILED: accepted%0A%0Atotal dropped%0Ano error%0Ahttps://x/r1"
	if lines[0] != want {
		t.Errorf("annotation\n got %s\nwant %s", lines[0], want)
	}
	if !strings.HasPrefix(lines[1], "::error title=testctl run r1%3A env::ERROR: down") {
		t.Errorf("error annotation: %s", lines[1])
	}
}

// GitHub shows ten annotations of a kind for a step: ten errors (failed
// first, then errored) and ten warnings (skipped) are printed, so warnings
// never crowd out errors, and the tenth of each says how many more.
func TestAnnotationsAtMostTenOfAKindMostUsefulFirst(t *testing.T) {
	var cases []api.RunTestCase
	for i := range 12 {
		cases = append(cases, api.RunTestCase{Name: fmt.Sprintf("skip%d", i), Status: api.StatusCompleted, Result: api.ResultSkipped})
		if i < 7 {
			cases = append(cases, api.RunTestCase{Name: fmt.Sprintf("err%d", i), Status: api.StatusError},
				api.RunTestCase{Name: fmt.Sprintf("fail%d", i), Status: api.StatusCompleted, Result: api.ResultFailed})
		}
	}
	d := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: cases}
	var buf bytes.Buffer
	stated := decide([]verdict.Record{{ShortID: "r1", Detail: d}})
	WriteAnnotations(&buf, stated, stated.Code, nil, Resume{})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2*MaxAnnotations {
		t.Fatalf("%d annotations, want %d:\n%s", len(lines), 2*MaxAnnotations, buf.String())
	}
	want := []string{"fail0", "fail1", "fail2", "fail3", "fail4", "fail5", "fail6", "err0", "err1", "err2"}
	for i, name := range want {
		if !strings.HasPrefix(lines[i], "::error title=testctl run r1%3A "+name+"::") {
			t.Errorf("annotation %d: %s, want the error of %s", i+1, lines[i], name)
		}
	}
	for i := range MaxAnnotations {
		if !strings.HasPrefix(lines[MaxAnnotations+i], fmt.Sprintf("::warning title=testctl run r1%%3A skip%d::", i)) {
			t.Errorf("annotation %d: %s, want the warning of skip%d", MaxAnnotations+i+1, lines[MaxAnnotations+i], i)
		}
	}
	if !strings.HasSuffix(lines[9], "(4 more test cases did not pass: see the step summary)") {
		t.Errorf("the tenth error does not count the rest: %s", lines[9])
	}
	if !strings.HasSuffix(lines[19], "(2 more warnings (skipped, flaky, known or quarantined test cases): see the step summary)") {
		t.Errorf("the tenth warning does not count the rest: %s", lines[19])
	}
}

func TestStepOutputsSingleAndSeveralRuns(t *testing.T) {
	one := []verdict.Record{{ShortID: "r1", URL: "https://x/r1",
		Detail: &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultPassed)}}}
	got := parseGitHubOutput(t, outputsOf(t, one))
	for k, v := range map[string]string{"run_short_id": "r1", "run_url": "https://x/r1", "run_status": "COMPLETED", "run_result": "PASSED"} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	several := append(one, verdict.Record{ShortID: "r2", Stop: verdict.TimedOut,
		Detail: &api.RunDetail{ShortID: "r2", Status: api.StatusRunning}},
		verdict.Record{ShortID: "r3\nrun_result=PASSED"})
	got = parseGitHubOutput(t, outputsOf(t, several))
	// A single value would name one run and hide the others: with several
	// runs only runs_json is written, and a short id cannot add an output.
	if len(got) != 1 {
		t.Errorf("several runs: %q, want runs_json alone", got)
	}
	var runs []map[string]any
	if err := json.Unmarshal([]byte(got["runs_json"]), &runs); err != nil || len(runs) != 3 || runs[1]["exitCode"] != 7.0 {
		t.Errorf("runs_json %q: %v", got["runs_json"], err)
	}
}

func TestStepSummaryEscapesServiceText(t *testing.T) {
	d := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-0", Name: "a | b <script>", Status: api.StatusCompleted, Result: api.ResultFailed,
			ResultTitle: "[click](https://evil)", EvaluationThought: "first\nsecond"},
	}}
	md := summaryOf(t, []verdict.Record{{ShortID: "r1", URL: "https://x/r1", Detail: d}})
	for _, want := range []string{"## ❌ testctl: failed (exit 1)", "### ❌ run `r1`: COMPLETED · FAILED", "[Open the run](https://x/r1)",
		`| ❌ | a \| b &lt;script&gt; | FAILED | \[click\]\(https://evil\) |`, "<blockquote>first<br>second</blockquote>",
		"<summary>❌ <b>a &#124; b &lt;script&gt;</b> — FAILED: &#91;click&#93;(https://evil)</summary>"} {
		if !strings.Contains(md, want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "<script>") || strings.Contains(md, "](https://evil)") {
		t.Errorf("service text became markup:\n%s", md)
	}
}

func outputsOf(t *testing.T, recs []verdict.Record) string {
	t.Helper()
	var b strings.Builder
	if err := WriteOutputs(&b, decide(recs)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func summaryOf(t *testing.T, recs []verdict.Record) string {
	t.Helper()
	var b strings.Builder
	stated := decide(recs)
	if err := WriteStepSummary(&b, stated, stated.Code, nil, Resume{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A plan whose start failed for good has no run: the step summary and the
// annotations say so, and the outputs, which describe runs, leave it out
// (with one run started, run_short_id names that run).
func TestGitHubReportsOfAPlanNotStarted(t *testing.T) {
	d := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultPassed),
		RunTestCases: []api.RunTestCase{{ShortID: "r1-1", Name: "A", Status: api.StatusCompleted, Result: api.ResultPassed}}}
	recs := []verdict.Record{{ShortID: "r1", URL: "https://x/r1", Detail: d},
		verdict.NotStartedRecord(verdict.Plan{ShortID: "pln-gone_1"}, &api.HTTPError{StatusCode: 404, Message: "test plan pln-gone_1 not found"})}
	if got := summaryOf(t, recs); !strings.Contains(got, "### ❌ plan pln-gone\\_1: not started\n\n") {
		t.Errorf("step summary:\n%s", got)
	}
	var b bytes.Buffer
	stated := decide(recs)
	WriteAnnotations(&b, stated, stated.Code, nil, Resume{})
	if !strings.HasPrefix(b.String(), "::error title=testctl%3A plan pln-gone_1 was not started::") {
		t.Errorf("annotations:\n%s", b.String())
	}
	out := parseGitHubOutput(t, outputsOf(t, recs))
	if out["run_short_id"] != "r1" || strings.Contains(out["runs_json"], "pln-gone_1") {
		t.Errorf("outputs: %v", out)
	}
}

// The whole step summary, with hostile plan and test case names, rendered
// as GitHub renders Markdown (GFM, raw HTML passed through): one
// <details> per test case that did not pass, nothing from the service
// turned into markup, and every name shown as written.
func TestStepSummaryKeepsItsStructureWithHostileNames(t *testing.T) {
	h := "</details></summary><script>alert(1)</script> `x` | y |\n# h"
	failed := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-1", Name: h, Status: api.StatusCompleted, Result: api.ResultFailed, ResultTitle: h, EvaluationThought: h},
		{ShortID: "r1-2", Name: "ok", Status: api.StatusCompleted, Result: api.ResultPassed},
		{ShortID: "r1-3", Name: "env " + h, Status: api.StatusError, ResultTitle: h},
	}}
	recs := []verdict.Record{
		verdict.NotStartedRecord(verdict.Plan{ShortID: "pln-" + h}, &api.HTTPError{StatusCode: 404, Message: h}),
		{ShortID: "r1", URL: "javascript:alert(1)", Plan: verdict.Plan{Name: h, ShortID: "pln-x_1"}, Detail: failed},
	}
	ev := Evidence{"r1-1": evidence.Case{Target: evidence.TargetOf("r1", h, failed.RunTestCases[0]),
		Network: evidence.Part[api.NetworkEntry]{Entries: []api.NetworkEntry{{URL: "https://x.invalid/" + h, Method: "POST", StatusCode: 502, IsError: true}}}}}
	var md strings.Builder
	stated := verdict.Decide(recs, verdict.Options{})
	if err := WriteStepSummary(&md, stated, stated.Code, ev, Resume{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	gfm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gfm.Convert([]byte(md.String()), &out); err != nil {
		t.Fatal(err)
	}
	doc, err := nethtml.Parse(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	var text strings.Builder
	var walk func(*nethtml.Node)
	walk = func(n *nethtml.Node) {
		if n.Type == nethtml.ElementNode {
			count[n.Data]++
			for _, a := range n.Attr {
				if a.Key == "href" && !strings.HasPrefix(a.Val, "https://") {
					t.Errorf("a link to %q", a.Val)
				}
			}
		}
		if n.Type == nethtml.TextNode {
			text.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if count["details"] != 2 || count["summary"] != 2 {
		t.Errorf("%d <details> and %d <summary>, want one each per test case that did not pass (2):\n%s", count["details"], count["summary"], md.String())
	}
	if count["script"] != 0 || count["h1"] != 0 || count["code"] > 0 && !strings.Contains(md.String(), "`r1`") {
		t.Errorf("service text became markup: %v\n%s", count, out.String())
	}
	if count["table"] != 1 {
		t.Errorf("%d tables, want the one test case table", count["table"])
	}
	if !strings.Contains(text.String(), "</details></summary><script>alert(1)</script>") {
		t.Errorf("the hostile name is not shown as written:\n%s", text.String())
	}
	if !strings.HasPrefix(md.String(), "## ❌ testctl: failed (exit 5)") ||
		strings.Index(md.String(), "not started") > strings.Index(md.String(), "### ❌ ") && !strings.HasPrefix(strings.SplitN(md.String(), "### ", 2)[1], "❌ plan") {
		t.Errorf("the verdict line and the plan that did not start come first:\n%s", md.String())
	}
}

// After a timeout the step summary says so, with the exit code and the
// command that resumes the wait on the same service.
func TestStepSummaryAfterATimeoutGivesTheResumeCommand(t *testing.T) {
	running := &api.RunDetail{ShortID: "r3", Status: api.StatusRunning}
	v := verdict.Decide([]verdict.Record{{ShortID: "r3", Detail: running, Stop: verdict.TimedOut}}, verdict.Options{})
	var md strings.Builder
	if err := WriteStepSummary(&md, v, v.Code, nil, Resume{Args: []string{"--profile", "ci"}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## ❌ testctl: failed (exit 7)", "still RUNNING when the wait timed out",
		"(exit 7); the runs go on. Resume waiting with:\n\n```\ntestctl --profile ci run wait r3\n```"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("step summary lacks %q:\n%s", want, md.String())
		}
	}
}

// A timeout's annotation carries the command that resumes the wait on the
// same service; after the embedded sandbox, which ended with the process,
// there is nothing to resume.
func TestTimeoutAnnotationGivesTheResumeCommand(t *testing.T) {
	running := &api.RunDetail{ShortID: "r3", Status: api.StatusRunning}
	v := verdict.Decide([]verdict.Record{{ShortID: "r3", Detail: running, Stop: verdict.TimedOut}}, verdict.Options{})
	var b strings.Builder
	WriteAnnotations(&b, v, v.Code, nil, Resume{Args: []string{"--profile", "ci"}})
	want := "::error title=testctl%3A run r3 timed out::still RUNNING when the wait timed out; the run goes on. " +
		"Resume waiting with: testctl --profile ci run wait r3\n"
	if b.String() != want {
		t.Errorf("annotation:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	WriteAnnotations(&b, v, v.Code, nil, Resume{Sandbox: true})
	if strings.Contains(b.String(), "run wait") || !strings.Contains(b.String(), "the run goes on\n") {
		t.Errorf("after the sandbox the annotation names a resume command:\n%s", b.String())
	}
}

// The resume command of the step summary renders, in a GitHub-flavoured
// Markdown renderer, exactly as the shell must read it: a backtick in the
// run's id neither ends the code block nor is changed.
func TestStepSummaryResumeCommandRendersAsWritten(t *testing.T) {
	const id = "r1`;touch pwned;#"
	running := &api.RunDetail{ShortID: id, Status: api.StatusRunning}
	v := verdict.Decide([]verdict.Record{{ShortID: id, Detail: running, Stop: verdict.TimedOut}}, verdict.Options{})
	var md, out bytes.Buffer
	if err := WriteStepSummary(&md, v, v.Code, nil, Resume{}); err != nil {
		t.Fatal(err)
	}
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(md.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	doc, err := nethtml.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var walk func(*nethtml.Node)
	walk = func(n *nethtml.Node) {
		if n.Type == nethtml.ElementNode && n.Data == "pre" {
			var text strings.Builder
			for c := range n.Descendants() {
				if c.Type == nethtml.TextNode {
					text.WriteString(c.Data)
				}
			}
			blocks = append(blocks, text.String())
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	want := "testctl run wait 'r1`;touch pwned;#'\n"
	if !slices.Contains(blocks, want) {
		t.Errorf("no code block reads %q; blocks %q\n%s", want, blocks, md.String())
	}
}

// A run's link stays a link whatever its address ends with: a backslash
// before the closing parenthesis would escape it.
func TestStepSummaryLinkSurvivesABackslash(t *testing.T) {
	for url, want := range map[string]string{
		`https://app.example/runs/r1\`:    `[Open the run](https://app.example/runs/r1%5C)`,
		"https://app.example/runs/(r1) x": "[Open the run](https://app.example/runs/%28r1%29%20x)",
		"javascript:alert(1)":             `javascript:alert\(1\)`,
	} {
		if got := mdLink("Open the run", url); got != want {
			t.Errorf("%q: %q, want %q", url, got, want)
		}
	}
}

// A run the gate fails though no test case failed gets a run-level ::error:
// exit 1 is never without one.
func TestRunLevelAnnotationWhenNoTestCaseSaysWhy(t *testing.T) {
	strp := func(s string) *string { return &s }
	for _, c := range []struct {
		name string
		rec  verdict.Record
		o    verdict.Options
		want string
	}{
		{"unknown result", verdict.Record{ShortID: "r1", Detail: &api.RunDetail{Status: api.StatusCompleted, Result: strp("BLOCKED"),
			RunTestCases: []api.RunTestCase{{ShortID: "r1-1", Name: "A", Status: api.StatusCompleted, Result: api.ResultPassed}}}},
			verdict.Options{}, "with no failed test case"},
		{"--fail-on-skipped", verdict.Record{ShortID: "r1", Detail: &api.RunDetail{Status: api.StatusCompleted, Result: strp(api.ResultSkipped)}},
			verdict.Options{FailOnSkipped: true, PassWithNoTests: true}, "failing because of --fail-on-skipped"},
		{"no test case", verdict.Record{ShortID: "r1", Detail: &api.RunDetail{Status: api.StatusCompleted, Result: strp(api.ResultPassed)}},
			verdict.Options{}, "but ran no test case"},
		{"error", verdict.Record{ShortID: "r1", Detail: &api.RunDetail{Status: api.StatusError}}, verdict.Options{}, "the run ended ERROR"},
	} {
		var b bytes.Buffer
		v := verdict.Decide([]verdict.Record{c.rec}, c.o)
		WriteAnnotations(&b, v, v.Code, nil, Resume{})
		if v.Code == 0 || !strings.Contains(b.String(), "::error title=testctl%3A run r1") || !strings.Contains(b.String(), c.want) {
			t.Errorf("%s: exit %d, annotations:\n%s", c.name, v.Code, b.String())
		}
	}
}
