package evidence

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/testctl/testctl/pkg/api"
)

// gfm renders like GitHub: GitHub-flavoured Markdown, raw HTML passed
// through (GitHub's own sanitiser then keeps details, summary, pre, p, b).
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))

func hostile() Case {
	h := "</details></summary><script>alert(1)</script> `code` | a | b |\n\n# heading\n\n| x | y |\n|---|---|\n*em* &amp;"
	return Case{
		Target:  Target{RunShortID: "r1", CaseShortID: "r1-1", Name: h, Result: "FAILED\n\n</details>", ResultTitle: h, EvaluationThought: h + "\n\n   \n" + h},
		Network: Part[api.NetworkEntry]{Entries: []api.NetworkEntry{{Method: "GET", URL: "https://x.invalid/" + h, StatusCode: 500, ErrorText: h}}},
		Console: Part[api.ConsoleEntry]{Entries: []api.ConsoleEntry{{Level: "error", Message: h}}},
		Issues:  Part[api.Issue]{Entries: []api.Issue{{Severity: "HIGH", Title: h}}},
	}
}

// A step summary of two test cases, one with hostile text everywhere,
// between ordinary Markdown: the parse must be exactly the heading, one
// HTML block per test case, and the table after them.
func TestMarkdownKeepsItsStructure(t *testing.T) {
	doc := "## Failures\n\n" + Markdown(hostile()) + Markdown(declined()) + "| run | result |\n|---|---|\n| r1 | FAILED |\n"
	src := []byte(doc)
	root := gfm.Parser().Parse(text.NewReader(src))
	var kinds []string
	var blocks []string
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		kinds = append(kinds, n.Kind().String())
		if hb, ok := n.(*ast.HTMLBlock); ok {
			var b strings.Builder
			for i := 0; i < hb.Lines().Len(); i++ {
				seg := hb.Lines().At(i)
				b.Write(seg.Value(src))
			}
			if hb.HasClosure() {
				b.Write(hb.ClosureLine.Value(src))
			}
			blocks = append(blocks, b.String())
		}
	}
	want := []string{ast.KindHeading.String(), ast.KindHTMLBlock.String(), ast.KindHTMLBlock.String(), extast.KindTable.String()}
	if strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Fatalf("parsed as %v, want %v:\n%s", kinds, want, doc)
	}
	for i, b := range blocks {
		if !strings.HasPrefix(b, "<details><summary>") || !strings.HasSuffix(b, "</details>\n") ||
			strings.Count(b, "<details>") != 1 || strings.Count(b, "</details>") != 1 || strings.Count(b, "</summary>") != 1 {
			t.Errorf("block %d is not one whole <details>:\n%s", i, b)
		}
	}

	var out bytes.Buffer
	if err := gfm.Renderer().Render(&out, src, root); err != nil {
		t.Fatal(err)
	}
	rendered := out.String()
	for _, bad := range []string{"<script", "<h1", "<code>", "<em>", "<td>x</td>"} {
		if strings.Contains(rendered, bad) {
			t.Errorf("service text became markup %q:\n%s", bad, rendered)
		}
	}
	for _, want := range []string{"&lt;/details&gt;&lt;/summary&gt;&lt;script&gt;", "`code` | a | b |", "&amp;amp;",
		"<b>FAILED</b> Pay with a declined card: A declined card leaves a blank page</summary>",
		"<p>POST /api/payments returned 502.</p>", "+4.9s POST /api/payments 502 (4.9 s)\n",
		"testctl logs r1a2b3-3 --kind console\n", "<td>FAILED</td>"} {
		if !strings.Contains(rendered, want) {
			t.Errorf("rendered lacks %q:\n%s", want, rendered)
		}
	}
}
