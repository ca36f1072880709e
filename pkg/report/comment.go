package report

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/prcomment"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// CommentRequest asks for the pull request comment (--comment). Ctx bounds
// its requests with the other work of the reports (Ctrl-C cuts it short);
// prcomment bounds them in time besides.
type CommentRequest struct {
	Ctx context.Context
	Env prcomment.Env
}

// CommentLinks are the links the comment gives besides the runs'.
type CommentLinks struct {
	// HTMLReport is the HTML report's file name when one was written, and
	// Artifacts the page that lists the CI run's artefacts.
	HTMLReport, Artifacts string
	// Run is the CI run's page, and RunName what the CI calls it
	// ("workflow run", "job").
	Run, RunName string
}

// writeComment keeps the pull request comment and says so on stderr.
// Where it cannot, it prints one notice saying why and what would fix it,
// and returns nil all the same: unlike the other reports, the comment is
// opt-in decoration for reviewers, so a comment that cannot be written
// (a fork's read-only token, not a pull request, GitHub down) never
// raises the exit code to 8 or fails a gate that passed.
func writeComment(in Input, out Outcome) error {
	v, c := out.Verdict, in.Comment
	thread, err := prcomment.Locate(c.Env)
	if err == nil {
		links := CommentLinks{Run: thread.RunURL, RunName: thread.RunName}
		if in.HTMLFile != "" && thread.ArtifactsURL != "" {
			if _, statErr := os.Stat(in.HTMLFile); statErr == nil {
				links.HTMLReport, links.Artifacts = filepath.Base(in.HTMLFile), thread.ArtifactsURL
			}
		}
		now := time.Now()
		if in.Now != nil {
			now = in.Now()
		}
		var kept prcomment.Kept
		kept, err = thread.Keep(c.Ctx, CommentMarkdown(v, out.Code, out.Evidence, in.Resume, links, now, thread.MaxBody))
		if err == nil {
			what := "updated"
			if kept.Created {
				what = "created"
			}
			if kept.URL != "" {
				what += ": " + termtext.SanitizeLine(kept.URL)
			}
			fmt.Fprintf(in.IO.ErrOut, "%s comment %s\n", thread.Kind, what)
			return nil
		}
	}
	msg := "no " + prcomment.Kind(c.Env.Getenv) + " comment was written"
	var why *prcomment.Unavailable
	if errors.As(err, &why) {
		msg += ": " + strings.TrimSuffix(why.Error(), ".") + "."
	} else {
		msg += ": " + err.Error() + "."
	}
	msg += " The exit code is not affected."
	if in.Getenv != nil && in.Getenv("GITHUB_ACTIONS") == "true" {
		// The notice is the log's line too: one, not two.
		fmt.Fprintf(in.IO.WorkflowCommands(), "::notice title=testctl --comment::%s\n", escapeData(msg))
		return nil
	}
	fmt.Fprintf(in.IO.ErrOut, "notice: %s\n", termtext.Sanitize(msg))
	return nil
}

// CommentMarkdown is the pull request comment: the step summary's verdict
// line, runs and failure story (each test case that did not pass collapsed
// in its <details>), without the tables of every test case; the HTML
// report's artefact; and a footer saying who keeps it and when it was
// last updated. It is cut to max bytes, with a note, at a blank line
// outside any <details>, so the Markdown stays whole.
func CommentMarkdown(v verdict.Verdict, code int, ev Evidence, res Resume, links CommentLinks, now time.Time, max int) string {
	var b strings.Builder
	writeVerdictMarkdown(&b, v, code, ev, res, false)
	story := b.String()
	var tail strings.Builder
	if links.HTMLReport != "" {
		if link := mdLink("the "+links.RunName+"'s artefacts", links.Artifacts); strings.HasPrefix(link, "[") {
			fmt.Fprintf(&tail, "📄 The HTML report %s is among %s.\n\n", mdCode(links.HTMLReport), link)
		}
	}
	tail.WriteString("<sub>Kept by testctl: every run of this job edits this comment")
	if link := mdLink(links.RunName, links.Run); strings.HasPrefix(link, "[") {
		tail.WriteString(" · " + link)
	}
	fmt.Fprintf(&tail, " · updated %s</sub>\n", now.UTC().Format("2006-01-02 15:04 UTC"))
	note := fmt.Sprintf("✂️ *Cut here: a comment holds at most %d characters. The step summary and the reports have the whole story.*\n\n", max)
	return cutMarkdown(story, max-tail.Len(), note) + tail.String()
}

// cutMarkdown is md when it fits in max bytes; else its longest start that
// ends at a blank line outside any <details> block and leaves room for the
// note, then the note. Service text is escaped, so every <details> in md
// is the reports' own.
func cutMarkdown(md string, max int, note string) string {
	if len(md) <= max {
		return md
	}
	limit := max - len(note)
	if limit <= 0 {
		return ""
	}
	depth, cut := 0, 0
	for i := 0; i < len(md); {
		j := strings.Index(md[i:], "\n\n")
		if j < 0 {
			break
		}
		end := i + j + 2
		if end > limit {
			break
		}
		chunk := md[i:end]
		depth += strings.Count(chunk, "<details>") - strings.Count(chunk, "</details>")
		if depth == 0 {
			cut = end
		}
		i = end
	}
	return md[:cut] + note
}
