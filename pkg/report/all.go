package report

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/api"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"github.com/testctl/testctl/pkg/verdict"
)

// Input is what the reports of a verdict need besides it.
type Input struct {
	IO     *iostreams.IOStreams
	Getenv func(string) string
	Output output.Options
	// JUnitFile is --junit; "" writes none.
	JUnitFile string
	Resume    Resume
	Evidence  Evidence
	// EvidenceLeft counts the test cases that did not pass beyond
	// --evidence, whose evidence was not gathered.
	EvidenceLeft int
	// HTMLFile is --html; "" writes none. History is the recent runs of
	// each plan, by plan short id, for the HTML report.
	HTMLFile string
	History  map[string][]api.RunSummary
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

// Write renders the verdict in every report asked for and returns the
// command's error: the verdict's code, or 8 when a report could not be
// written, whichever is larger (Multiplexer). The files come first and
// stdout last, so a failing --jq on stdout never loses a report.
func Write(in Input, v verdict.Verdict) error {
	return Reporters(in).End(v)
}

// Reporters are the reporters of the reports in asks for, in the order
// they are written: the JUnit and HTML files, the GitHub Actions files
// and annotations, the summary on stderr, the pull request comment, the
// data on stdout.
func Reporters(in Input) *Multiplexer {
	ios := in.IO
	m := &Multiplexer{ErrOut: ios.ErrOut}
	file := func(what, output, path string, write func(string, verdict.Verdict) error) {
		if path == "" {
			return
		}
		m.Reporters = append(m.Reporters, reporter{"the " + what + " report", func(v verdict.Verdict) error {
			if err := write(path, v); err != nil {
				return fmt.Errorf("writing the %s report: %w", what, err)
			}
			fmt.Fprintf(ios.ErrOut, "%s report written to %s\n", what, path)
			in.Step.Wrote(output, path)
			return nil
		}})
	}
	file("JUnit", "junit", in.JUnitFile, func(path string, v verdict.Verdict) error { return WriteJUnitFile(path, v, in.Evidence) })
	file("HTML", "html", in.HTMLFile, func(path string, v verdict.Verdict) error {
		return WriteHTMLFile(path, v, in.Evidence, in.History, in.Now, in.Resume)
	})
	m.Reporters = append(m.Reporters,
		reporter{"GitHub Actions", func(v verdict.Verdict) error {
			// A later step would read missing outputs as empty.
			return errors.Join(WriteGitHub(in.Getenv, ios.WorkflowCommands(), v, in.Evidence, in.Resume)...)
		}},
		reporter{"the summary", func(v verdict.Verdict) error { return writeTerminal(in, v) }})
	if in.Comment != nil {
		// After the summary, so its notice, if any, is the last word on
		// stderr; before the data, which comes last.
		m.Reporters = append(m.Reporters, reporter{"the pull request comment", func(v verdict.Verdict) error { return writeComment(in, v) }})
	}
	if !in.NoData {
		m.Reporters = append(m.Reporters, reporter{"the data on stdout", func(v verdict.Verdict) error {
			return WriteData(ios, in.Output, v) // a closed pipe is no error (iostreams.Stdout)
		}})
	}
	return m
}

// writeTerminal writes the summary, the warnings and the next steps on
// stderr, built whole and written at once: one write instead of one per
// line (a 10-failure story is some 200 lines), and nothing another
// goroutine prints can land inside it.
func writeTerminal(in Input, v verdict.Verdict) error {
	ios := in.IO
	width := 0
	if ios.IsStderrTTY() {
		width = ios.ErrTerminalWidth()
	}
	var summary bytes.Buffer
	WriteSummary(&summary, ios.ErrStyles(), width, v, in.Evidence, in.Resume)
	// Said only when --evidence cut the gathering short: --evidence 0
	// turned it off on purpose.
	if in.EvidenceLeft == 1 && len(in.Evidence) > 0 {
		fmt.Fprintln(&summary, "\n(1 more test case did not pass; its evidence was not gathered: raise --evidence)")
	} else if in.EvidenceLeft > 1 && len(in.Evidence) > 0 {
		fmt.Fprintf(&summary, "\n(%d more test cases did not pass; their evidence was not gathered: raise --evidence)\n", in.EvidenceLeft)
	}
	WriteSkippedWarnings(&summary, ios.ErrStyles(), v)
	writeStale(&summary, v)
	WriteNextSteps(&summary, v, in.Resume)
	WriteResumeHint(&summary, v, in.Resume)
	_, err := ios.ErrOut.Write(summary.Bytes())
	return err
}
