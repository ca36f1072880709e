package report

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteStepSummary writes the verdict as GitHub-flavoured Markdown for
// $GITHUB_STEP_SUMMARY: the verdict line first, then the plans that did not
// start, then each run under its plan's name, its test cases that did not
// pass first, each a collapsible block with the evaluation and the
// evidence. Service text is escaped so that it cannot add links, HTML,
// table columns or close a block.
func WriteStepSummary(w io.Writer, v verdict.Verdict, code int, ev Evidence, res Resume) error {
	var b strings.Builder
	writeVerdictMarkdown(&b, v, code, ev, res, true)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeVerdictMarkdown is the step summary's Markdown, which the pull
// request comment shares; caseTables adds each run's table of every test
// case (the comment leaves it out: the failures are what a reviewer reads).
func writeVerdictMarkdown(b *strings.Builder, v verdict.Verdict, code int, ev Evidence, res Resume, caseTables bool) {
	// The verdict line first: the one line a reader of the summary needs,
	// with the code the process exits with (code), and, when that is not
	// the runs' verdict, why.
	icon, word := "✅", "passed"
	if code != 0 {
		icon, word = "❌", "failed"
	}
	fmt.Fprintf(b, "## %s testctl: %s (exit %d)\n\n%s\n\n", icon, word, code, v.Tally())
	if code != v.Code {
		fmt.Fprintf(b, "**Exit %d: %s.** The runs' verdict: %s (exit %d).\n\n", code, mdText(RaisedWhy(code)), verdict.Word(v.Code, false), v.Code)
	}
	if v.Classified && v.Counts.Failed+v.Counts.Errored > 0 {
		// What the change broke, apart from what was broken before it.
		fmt.Fprintf(b, "**%s**\n\n", v.Failures)
	}
	for _, r := range v.Runs {
		if r.NotStarted {
			fmt.Fprintf(b, "### ❌ %s: %s\n\n%s\n\n", mdText(r.Plan.What()), StartWord(r), mdText(FirstLine(r.Err.Error())))
			if r.Look != "" {
				fence := codeFence(r.Look)
				fmt.Fprintf(b, "Look for it with:\n\n%s\n%s\n%s\n\n", fence, r.Look, fence)
			}
		}
	}
	for _, r := range v.Runs {
		if !r.NotStarted {
			writeRunMarkdown(b, r, ev, caseTables, v)
		}
	}
	if cmd := resumeCommand(v, res); cmd != "" {
		fence := codeFence(cmd)
		fmt.Fprintf(b, "⏳ The wait ended before every run did (exit %d); the runs go on. Resume waiting with:\n\n%s\n%s\n%s\n\n",
			code, fence, cmd, fence)
	}
}

func writeRunMarkdown(b *strings.Builder, r verdict.Run, ev Evidence, caseTable bool, v verdict.Verdict) {
	heading := "run " + mdCode(r.ShortID)
	if t := r.Plan.Title(); t != "" {
		heading = mdText(t) + " · " + heading
		if r.Plan.ShortID != "" && r.Plan.ShortID != t {
			heading += " · " + mdCode(r.Plan.ShortID)
		}
	}
	fmt.Fprintf(b, "### %s %s: %s\n\n", runEmoji(r), heading, mdText(runHeadline(r)))
	var facts []string
	if link := mdLink("Open the run", r.URL); link != "" {
		facts = append(facts, link)
	}
	if r.Detail != nil {
		facts = append(facts, r.Counts.String())
	}
	if r.Err != nil {
		facts = append(facts, mdText(FirstLine(r.Err.Error())))
	}
	if note := baselineNote(r, v.BaselineBranch); note != "" {
		facts = append(facts, mdText(note))
	}
	if note := CIRetryText(r); note != "" {
		facts = append(facts, mdText(note))
	}
	if len(facts) > 0 {
		b.WriteString(strings.Join(facts, " · ") + "\n\n")
	}
	for _, c := range r.ByFailure() {
		writeCaseDetails(b, c, ev, v.Classified)
	}
	writeFlakyMarkdown(b, r, ev)
	if len(r.Cases) == 0 || !caseTable {
		return
	}
	b.WriteString("| | Test case | Outcome | Title |\n|---|---|---|---|\n")
	for _, c := range r.Cases {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", caseEmoji[c.Class], mdText(c.Name), mdText(verdict.CaseWord(c.RunTestCase)), mdText(c.ResultTitle))
	}
	b.WriteString("\n")
}

// writeCaseDetails is one test case that did not pass as a <details>
// block. Inside HTML, Markdown is not read, so everything in it is
// HTML-escaped text.
func writeCaseDetails(b *strings.Builder, c verdict.Case, ev Evidence, classified bool) {
	if classified {
		// The class heads the block: whether this failure fails the gate.
		fmt.Fprintf(b, "**%s** · %s%s\n\n", mdText(c.Name), mdText(FailureWord(c)), prefixed(" · ", mdText(quarantineNote(c))))
	}
	if md := ev.text(c.ShortID, evidence.Markdown); md != "" {
		b.WriteString(md) // the evaluation and the evidence, one block
		return
	}
	fmt.Fprintf(b, "<details><summary>%s <b>%s</b> — %s: %s</summary>\n\n", caseEmoji[c.Class], htmlText(c.Name),
		htmlText(verdict.CaseWord(c.RunTestCase)), htmlText(c.ResultTitle))
	if thought := strings.TrimSpace(termtext.Sanitize(c.EvaluationThought)); thought != "" {
		fmt.Fprintf(b, "<blockquote>%s</blockquote>\n\n", strings.ReplaceAll(html.EscapeString(evidence.Unlinked(thought)), "\n", "<br>"))
	}
	if c.ShortID != "" {
		cmds := moreCommands(c.ShortID)
		for i := range cmds {
			cmds[i] = htmlText(cmds[i])
		}
		fmt.Fprintf(b, "<pre>%s</pre>\n\n", strings.Join(cmds, "\n"))
	}
	b.WriteString("</details>\n\n")
}

// writeFlakyMarkdown lists the attempts of --retry-failed and the test
// cases that passed only on a retry, with their first failure.
func writeFlakyMarkdown(b *strings.Builder, r verdict.Run, ev Evidence) {
	if len(r.Earlier) == 0 {
		return
	}
	b.WriteString("#### Attempts\n\n")
	for i, a := range r.Attempts() {
		fmt.Fprintf(b, "%d. run %s%s\n", i+1, mdCode(a.ShortID), prefixed(" · ", mdLink("open", a.URL)))
	}
	b.WriteString("\n")
	flaky := r.Flaky()
	if len(flaky) == 0 {
		return
	}
	b.WriteString("#### ⚠️ Flaky: passed only on a retry\n\n")
	for _, c := range flaky {
		fmt.Fprintf(b, "**%s** — %s; first failure: %s\n\n", mdText(c.Name), retryWords(r, c),
			mdText(c.FirstFailure.ResultTitle))
		if md := ev.text(c.FirstFailure.ShortID, evidence.Markdown); md != "" {
			b.WriteString("<details><summary>Evidence of the failed attempt</summary>\n\n" + md + "</details>\n\n")
		}
	}
}

func runEmoji(r verdict.Run) string {
	switch {
	case r.Class == verdict.RunStopped:
		return "⏳"
	case r.Code != 0:
		return "❌"
	case warned(r):
		return "⚠️"
	}
	return "✅"
}

var caseEmoji = map[verdict.Class]string{
	verdict.Passed: "✅", verdict.Failed: "❌", verdict.Errored: "❌",
	verdict.Skipped: "⏭️", verdict.Flaky: "⚠️", verdict.NotRun: "⏳",
}

// mdEscaper neutralises Markdown and HTML: entities for what starts HTML,
// a backslash for the punctuation Markdown gives meaning (GFM allows a
// backslash before any ASCII punctuation, so over-escaping is harmless).
var mdEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"|", `\|`, "#", `\#`, "~", `\~`, "!", `\!`, "(", `\(`, ")", `\)`,
)

// mdText is service text on one line, safe inside Markdown and table
// cells, and pinging nobody (evidence.Unlinked) where it is posted as a
// pull request comment.
func mdText(s string) string { return mdEscaper.Replace(evidence.Unlinked(termtext.SanitizeLine(s))) }

// htmlText is service text on one line, safe inside HTML (a <details>
// block, where Markdown is not read): pipes too, so a table row stays one.
func htmlText(s string) string {
	return htmlEscaper.Replace(html.EscapeString(evidence.Unlinked(termtext.SanitizeLine(s))))
}

// mdCode is service text as a code span, where backslashes escape
// nothing: only a backtick could end it.
func mdCode(s string) string {
	return "`" + strings.ReplaceAll(termtext.SanitizeLine(s), "`", "'") + "`"
}

// htmlEscaper also neutralises what a renderer might still read as
// Markdown or a table: pipes and brackets.
var htmlEscaper = strings.NewReplacer("|", "&#124;", "[", "&#91;", "]", "&#93;")

// mdLink links only to web addresses; anything else is shown as text.
func mdLink(label, url string) string {
	url = termtext.SanitizeLine(url)
	if url == "" {
		return ""
	}
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return mdText(url)
	}
	url = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", `\`, "%5C").Replace(url)
	return fmt.Sprintf("[%s](%s)", label, url)
}

// runHeadline is the run's outcome in words for the summary.
func runHeadline(r verdict.Run) string {
	switch {
	case r.Detail == nil && r.Stop != "":
		return "no answer when " + r.Stop.Why()
	case r.Detail == nil:
		return "no verdict"
	case r.Stop != "":
		return "still " + r.Detail.Status + " when " + r.Stop.Why()
	case r.Err != nil:
		return "last seen " + r.Detail.Status + ", no verdict"
	}
	return StatusText(r) + because(r)
}

// codeFence is a Markdown fence for a code block of s: three backticks, or
// one more than the longest run of them in s, so that s, a command to
// paste, is shown exactly as written (a backtick in a quoted id included).
func codeFence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
