package evidence

import (
	"html"
	"strings"

	"github.com/testctl/testctl/pkg/termtext"
)

// Markdown is c as a collapsible block for a GitHub step summary: a
// <details> whose <summary> names the test case, its result and title, and
// which holds the evaluation, the evidence and the commands for more.
//
// The block is HTML from its first line to its last, with no blank line in
// between, so a Markdown renderer passes it through as one HTML block and
// reads nothing in it as Markdown: backticks, pipes, asterisks stay text.
// Service text is sanitised and HTML-escaped, its line breaks become <br>,
// so that no name can close the block (</details>), open a tag or end the
// HTML block with a blank line. The block ends with a blank line, so what
// follows is Markdown again.
func Markdown(c Case) string {
	var b strings.Builder
	b.WriteString("<details><summary>")
	if c.Result != "" {
		b.WriteString("<b>" + esc(c.Result) + "</b> ")
	}
	b.WriteString(esc(c.Name))
	if c.ResultTitle != "" {
		b.WriteString(": " + esc(c.ResultTitle))
	}
	b.WriteString("</summary>\n")
	if thought := paragraph(c.EvaluationThought); thought != "" {
		b.WriteString("<p>" + thought + "</p>\n")
	}
	// Lines are never empty; Commands may be.
	b.WriteString("<pre>\n" + html.EscapeString(strings.Join(Lines(c), "\n")) + "\n</pre>\n")
	if cmds := Commands(c); len(cmds) > 0 {
		b.WriteString("<p>More:</p>\n<pre>\n" + html.EscapeString(strings.Join(cmds, "\n")) + "\n</pre>\n")
	}
	b.WriteString("</details>\n\n")
	return b.String()
}

// esc is one line of service text made safe inside HTML.
func esc(s string) string {
	return html.EscapeString(Unlinked(strings.TrimSpace(termtext.SanitizeLine(s))))
}

// zeroWidthSpace is invisible, yet no word: GitHub reads no mention across it.
const zeroWidthSpace = "\u200b"

// Unlinked is service text that GitHub will not turn into a notification
// or a cross-reference where it posts Markdown (a pull request comment):
// a zero-width space after the @ of an @mention or @org/team, and after
// the # of an issue reference (#12, owner/repo#12). It reads the same.
// Code spans and <pre> need none: GitHub links nothing in them.
func Unlinked(s string) string {
	if !strings.ContainsAny(s, "@#") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if i+1 == len(s) {
			break
		}
		next := s[i+1]
		digit := '0' <= next && next <= '9'
		word := digit || 'a' <= next && next <= 'z' || 'A' <= next && next <= 'Z'
		if s[i] == '@' && word || s[i] == '#' && digit {
			b.WriteString(zeroWidthSpace)
		}
	}
	return b.String()
}

// paragraph is multi-line service text as one line of HTML, its line
// breaks as <br> and its empty lines dropped.
func paragraph(s string) string {
	var lines []string
	for _, l := range strings.Split(termtext.Sanitize(s), "\n") {
		if l = esc(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "<br>")
}
