package report

import (
	"bytes"
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/stepoutputs"
)

// Input is what the reports of a verdict need besides it.
type Input struct {
	IO     *iostreams.IOStreams
	Getenv func(string) string
	Output output.Options
	// JUnitFile is --junit; "" writes none.
	JUnitFile string
	Resume    Resume
	// HTMLFile is --html; "" writes none.
	HTMLFile string
	Now      func() time.Time // the report's time
	// NoData: stdout keeps what the command already printed there (-q).
	NoData bool
	// Step notes the runs and the reports written, for the outputs of a
	// CI step, written at the command's end with its final code; nil
	// notes nothing.
	Step *stepoutputs.Step
	// Comment, when set (--comment), keeps the pull request comment.
	Comment *CommentRequest
}

// Reporters are the reporters of the end in asks for, in the order they
// are written: the JUnit and HTML files, the GitHub Actions files and
// annotations, the summary on stderr, the pull request comment, the data
// on stdout. The files come first and stdout last, so a failing --jq on
// stdout never loses a report; a Multiplexer's End returns the command's
// error: the verdict's code, or 8 when a report could not be written,
// whichever is larger.
func Reporters(in Input) []Reporter {
	ios := in.IO
	var rs []Reporter
	file := func(what, output, path string, write func(string, Outcome) error) {
		if path == "" {
			return
		}
		rs = append(rs, reporter{name: "the " + what + " report", end: func(out Outcome) error {
			if err := write(path, out); err != nil {
				return fmt.Errorf("writing the %s report: %w", what, err)
			}
			fmt.Fprintf(ios.ErrOut, "%s report written to %s\n", what, path)
			in.Step.Wrote(output, path)
			return nil
		}})
	}
	file("JUnit", "junit", in.JUnitFile, func(path string, out Outcome) error {
		return WriteJUnitFile(path, out.Verdict, out.Evidence)
	})
	file("HTML", "html", in.HTMLFile, func(path string, out Outcome) error {
		return WriteHTMLFile(path, out.Verdict, out.Evidence, out.History, in.Now, in.Resume)
	})
	// A later step would read missing outputs as empty: each is a report.
	rs = append(rs, GitHubReporters(in.Getenv, ios.WorkflowCommands(), in.Resume)...)
	rs = append(rs, reporter{name: "the summary", end: func(out Outcome) error { return writeTerminal(in, out) }})
	if in.Comment != nil {
		// After the summary, so its notice, if any, is the last word on
		// stderr; before the data, which comes last.
		rs = append(rs, reporter{name: "the pull request comment", end: func(out Outcome) error { return writeComment(in, out) }})
	}
	if !in.NoData {
		rs = append(rs, reporter{name: "the data on stdout", end: func(out Outcome) error {
			return WriteData(ios, in.Output, out.Verdict) // a closed pipe is no error (iostreams.Stdout)
		}})
	}
	return rs
}

// writeTerminal writes the summary, the warnings and the next steps on
// stderr, built whole and written at once: one write instead of one per
// line (a 10-failure story is some 200 lines), and nothing another
// goroutine prints can land inside it.
func writeTerminal(in Input, out Outcome) error {
	ios, v := in.IO, out.Verdict
	width := 0
	if ios.IsStderrTTY() {
		width = ios.ErrTerminalWidth()
	}
	var summary bytes.Buffer
	WriteSummary(&summary, ios.ErrStyles(), width, v, out.Evidence, in.Resume)
	// Said only when --evidence cut the gathering short: --evidence 0
	// turned it off on purpose.
	if out.EvidenceLeft == 1 && len(out.Evidence) > 0 {
		fmt.Fprintln(&summary, "\n(1 more test case did not pass; its evidence was not gathered: raise --evidence)")
	} else if out.EvidenceLeft > 1 && len(out.Evidence) > 0 {
		fmt.Fprintf(&summary, "\n(%d more test cases did not pass; their evidence was not gathered: raise --evidence)\n", out.EvidenceLeft)
	}
	WriteSkippedWarnings(&summary, ios.ErrStyles(), v)
	writeStale(&summary, v)
	WriteNextSteps(&summary, v, in.Resume)
	WriteResumeHint(&summary, v, in.Resume)
	_, err := ios.ErrOut.Write(summary.Bytes())
	return err
}
