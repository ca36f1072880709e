package wait

import (
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/termtext"
)

// WriteStepSummary writes the runs as GitHub-flavoured Markdown for
// $GITHUB_STEP_SUMMARY. Service text is escaped so that it cannot add links,
// HTML or table columns.
func WriteStepSummary(w io.Writer, recs []Record) error {
	var b strings.Builder
	for _, r := range recs {
		if r.NotStarted {
			fmt.Fprintf(&b, "### ❌ testctl: %s not started\n\n%s\n\n", mdText(startedWhat(r.Plan)), mdText(firstLine(r.Err.Error())))
			continue
		}
		fmt.Fprintf(&b, "### %s testctl run `%s`: %s\n\n", runEmoji(r), mdText(r.ShortID), mdText(runHeadline(r)))
		var facts []string
		if link := mdLink("Open the run", r.URL); link != "" {
			facts = append(facts, link)
		}
		if r.Detail != nil {
			facts = append(facts, countCases(r.Cases()).String())
		}
		if r.Err != nil {
			facts = append(facts, mdText(firstLine(r.Err.Error())))
		}
		if len(facts) > 0 {
			b.WriteString(strings.Join(facts, " · ") + "\n\n")
		}
		if r.Detail == nil || len(r.Detail.RunTestCases) == 0 {
			continue
		}
		b.WriteString("| | Test case | Outcome | Title |\n|---|---|---|---|\n")
		for _, tc := range r.Cases() {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", caseEmoji(tc), mdText(tc.Name), mdText(caseOutcome(tc)), mdText(tc.ResultTitle))
		}
		b.WriteString("\n")
		writeReasons(&b, r.Detail)
		writeFlakyMarkdown(&b, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFlakyMarkdown lists the attempts of --retry-failed and the test
// cases that passed only on a retry, with their first failure.
func writeFlakyMarkdown(b *strings.Builder, r Record) {
	if len(r.Earlier) == 0 {
		return
	}
	b.WriteString("#### Attempts\n\n")
	for i, a := range r.attempts() {
		line := "run `" + mdText(a.ShortID) + "`"
		if link := mdLink("open", a.URL); link != "" {
			line += " · " + link
		}
		fmt.Fprintf(b, "%d. %s\n", i+1, line)
	}
	b.WriteString("\n")
	flaky := r.Flaky()
	if len(flaky) == 0 {
		return
	}
	b.WriteString("#### ⚠️ Flaky: passed only on a retry\n\n")
	for _, fc := range flaky {
		fmt.Fprintf(b, "**%s** — passed on retry %d of %d; first failure: %s\n\n", mdText(fc.Case.Name), fc.Retry, fc.Retries,
			mdText(fc.FirstFailure.ResultTitle))
	}
}

// writeReasons lists why test cases did not pass, with the evaluation.
func writeReasons(b *strings.Builder, d *api.RunDetail) {
	first := true
	for _, tc := range d.RunTestCases {
		if !isTestCaseFailure(tc) && tc.Result != api.ResultSkipped {
			continue
		}
		if first {
			b.WriteString("#### Why test cases did not pass\n\n")
			first = false
		}
		fmt.Fprintf(b, "**%s** (`%s`) — %s: %s\n\n", mdText(tc.Name), mdText(tc.ShortID), mdText(caseOutcome(tc)), mdText(tc.ResultTitle))
		if thought := strings.TrimSpace(termtext.Sanitize(tc.EvaluationThought)); thought != "" {
			for _, line := range strings.Split(thought, "\n") {
				fmt.Fprintf(b, "> %s\n", mdText(line))
			}
			b.WriteString("\n")
		}
	}
}

func runEmoji(r Record) string {
	switch {
	case r.Detail == nil || r.Err != nil:
		return "❌"
	case r.Pending != "":
		return "⏳"
	case r.Code != 0:
		return "❌"
	case r.Detail.ResultOrEmpty() == api.ResultSkipped:
		return "⚠️"
	}
	return "✅"
}

func caseEmoji(tc api.RunTestCase) string {
	switch {
	case !api.IsTerminalStatus(tc.Status):
		return "⏳"
	case isTestCaseFailure(tc):
		return "❌"
	case tc.Result == api.ResultSkipped:
		return "⏭️"
	}
	return "✅"
}

// mdEscaper neutralises Markdown and HTML: entities for what starts HTML,
// a backslash for the punctuation Markdown gives meaning (GFM allows a
// backslash before any ASCII punctuation, so over-escaping is harmless).
var mdEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"|", `\|`, "#", `\#`, "~", `\~`, "!", `\!`, "(", `\(`, ")", `\)`,
)

// mdText is service text on one line, safe inside Markdown and table cells.
func mdText(s string) string { return mdEscaper.Replace(termtext.SanitizeLine(s)) }

// mdLink links only to web addresses; anything else is shown as text.
func mdLink(label, url string) string {
	url = termtext.SanitizeLine(url)
	if url == "" {
		return ""
	}
	if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return mdText(url)
	}
	url = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(url)
	return fmt.Sprintf("[%s](%s)", label, url)
}

// runHeadline is the run's outcome in words for the summary.
func runHeadline(r Record) string {
	switch {
	case r.Detail == nil:
		return "no verdict"
	case r.Pending != "":
		return "still " + r.Detail.Status + " when " + r.Pending
	case r.Err != nil:
		return "last seen " + r.Detail.Status + ", no verdict"
	}
	return statusText(r.Detail)
}
