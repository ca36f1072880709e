package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	nethtml "golang.org/x/net/html"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/verdict"
)

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
	if err := WriteStepSummary(&md, verdict.Decide(recs, verdict.Options{}), ev, Resume{}); err != nil {
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
	if err := WriteStepSummary(&md, v, nil, Resume{Args: []string{"--profile", "ci"}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## ❌ testctl: failed (exit 7)", "still RUNNING when the wait timed out",
		"(exit 7); the runs go on. Resume waiting with:\n\n```\ntestctl --profile ci run wait r3\n```"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("step summary lacks %q:\n%s", want, md.String())
		}
	}
}
