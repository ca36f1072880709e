package report

import (
	"bytes"
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/exitcode"

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
	// CTRFFile is --ctrf; "" writes none.
	CTRFFile string
	Now      func() time.Time // the report's time
	// NoData: stdout keeps what the command already printed there (-q).
	NoData bool
	// Step notes the runs and the reports written, for the outputs of a
	// CI step, written at the command's end with its final code; nil
	// notes nothing.
	Step *stepoutputs.Step
	// Comment, when set (--comment), keeps the pull request comment.
	Comment *CommentRequest
	// EndFiles are the files of a CI step's end (the dotenv report, the
	// outputs exit-code and verdict, the exit code file): written among
	// the reports, with the code they state; none when its Word is nil.
	EndFiles stepoutputs.EndFiles
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
		// A file whose probe failed was said to be; it is not tried again.
		var unwritable error
		rs = append(rs, reporter{name: "the " + what + " report",
			probe: func(Outcome) error {
				if unwritable = atomicfile.ProbeWrite(path); unwritable != nil {
					return fmt.Errorf("writing the %s report: %w", what, unwritable)
				}
				return nil
			},
			end: func(out Outcome) error {
				if unwritable != nil {
					return nil
				}
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
	file("CTRF", "ctrf", in.CTRFFile, func(path string, out Outcome) error {
		return WriteCTRFFile(path, out.Verdict, out.Evidence, in.Getenv, in.Now())
	})
	// A later step would read missing outputs as empty: each is a report.
	rs = append(rs, GitHubReporters(in.Getenv, ios.WorkflowCommands(), in.Resume)...)
	rs = append(rs, SinkReporters(in.Step.Sinks(in.EndFiles))...)
	if in.EndFiles.Word != nil {
		in.Step.MarkEnded()
	}
	rs = append(rs, reporter{name: "the summary", states: true, end: func(out Outcome) error { return writeTerminal(in, out) }})
	if in.Comment != nil {
		// After the summary, so its notice, if any, is the last word on
		// stderr; before the data, which comes last.
		rs = append(rs, reporter{name: "the pull request comment", states: true, end: func(out Outcome) error { return writeComment(in, out) }})
	}
	if !in.NoData {
		rs = append(rs, newDataReporter(ios, in.Output))
	}
	return rs
}

// SinkReporters are the files of a CI step's end as reporters that state
// the code: probed before any report states one, written with the code
// settled; one whose probe failed was said to fail and is not tried again.
func SinkReporters(sinks []stepoutputs.Sink) []Reporter {
	rs := make([]Reporter, 0, len(sinks))
	for _, sink := range sinks {
		var unwritable error
		rs = append(rs, reporter{name: sink.Name, states: true,
			probe: func(Outcome) error { unwritable = sink.Probe(); return unwritable },
			end: func(out Outcome) error {
				if unwritable != nil {
					return nil
				}
				return sink.Write(out.Code)
			}})
	}
	return rs
}

// dataReporter writes the runs as data on stdout, last. Structured data is
// rendered in memory when the code is settled, so that a --jq that fails on
// the document decides the code (the larger of the verdict's and 2) before
// any report states it; what it printed before failing still goes out.
type dataReporter struct {
	IgnoreEvents
	ios      *iostreams.IOStreams
	o        output.Options
	rendered *bytes.Buffer
}

func newDataReporter(ios *iostreams.IOStreams, o output.Options) *dataReporter {
	return &dataReporter{ios: ios, o: o}
}

func (d *dataReporter) Name() string { return "the data on stdout" }

func (d *dataReporter) Probe(out Outcome) error {
	if !d.o.IsStructured() {
		return nil
	}
	d.rendered = new(bytes.Buffer)
	err := WriteData(d.rendered, d.ios, d.o, out.Verdict)
	if err != nil && exitcode.Of(err) == exitcode.Usage {
		return &exitcode.Error{Code: max(out.Verdict.Code, exitcode.Usage), Err: err}
	}
	return err
}

// End writes the data; a closed pipe is no error (iostreams.Stdout).
func (d *dataReporter) End(out Outcome) error {
	if d.rendered != nil {
		_, err := d.ios.Out.Write(d.rendered.Bytes())
		return err
	}
	return WriteData(d.ios.Out, d.ios, d.o, out.Verdict)
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
	mark := ios.ErrStyles().SuccessIcon()
	if out.Code != 0 {
		mark = ios.ErrStyles().FailureIcon()
	}
	fmt.Fprintf(&summary, "\n%s %s\n", mark, CodeLine(v, out.Code))
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
