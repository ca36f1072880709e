package report

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/verdict"
)

// The comment is the step summary's story without the tables of every
// test case, then the artefact and the footer; cut to fit, it ends at a
// whole block with the note, the footer kept.
func TestCommentMarkdownFitsAndStaysWhole(t *testing.T) {
	var cases []api.RunTestCase
	for i := range 40 {
		cases = append(cases, api.RunTestCase{ShortID: "r1-" + strings.Repeat("x", i), Name: "case", Status: api.StatusCompleted,
			Result: api.ResultFailed, ResultTitle: "broke", EvaluationThought: strings.Repeat("why ", 50)})
	}
	cases = append(cases, api.RunTestCase{ShortID: "r1-ok", Name: "fine", Status: api.StatusCompleted, Result: api.ResultPassed})
	v := verdict.Decide([]verdict.Record{{ShortID: "r1", URL: "https://app.example/r1", Detail: &api.RunDetail{ShortID: "r1",
		Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: cases}}}, verdict.Options{})
	links := CommentLinks{HTMLReport: "report.html", Artifacts: "https://ci.example/runs/1#artifacts", Run: "https://ci.example/runs/1", RunName: "workflow run"}
	now := time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

	whole := CommentMarkdown(v, v.Code, nil, Resume{}, links, now, 1<<20)
	if strings.Contains(whole, "| Test case |") || strings.Contains(whole, "Cut here") {
		t.Errorf("the comment has a table of every test case, or was cut:\n%s", whole)
	}
	if !strings.HasSuffix(whole, "📄 The HTML report `report.html` is among [the workflow run's artefacts](https://ci.example/runs/1#artifacts).\n\n"+
		"<sub>Kept by testctl: every run of this job edits this comment · [workflow run](https://ci.example/runs/1) · updated 2026-11-21 09:30 UTC</sub>\n") {
		t.Errorf("the comment's end:\n%s", whole[len(whole)-400:])
	}

	for _, max := range []int{3000, 7777, len(whole) - 1} {
		cut := CommentMarkdown(v, v.Code, nil, Resume{}, links, now, max)
		if len(cut) > max || len(cut) < max-1500 {
			t.Errorf("max %d: %d bytes", max, len(cut))
		}
		if strings.Count(cut, "<details>") != strings.Count(cut, "</details>") || !strings.Contains(cut, "Cut here") ||
			!strings.HasPrefix(cut, "## ❌ testctl: failed (exit 1)") || !strings.Contains(cut, "<sub>Kept by testctl") {
			t.Errorf("max %d: not cut whole:\n%s", max, cut)
		}
	}
}
