package report

import (
	"bytes"
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
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
}

// Write renders the verdict in every report asked for and returns the
// command's error: the verdict's code, or 8 when a report could not be
// written, whichever is larger. The files come first and stdout last, so
// a closed pipe or a failing --jq on stdout never loses a report.
func Write(in Input, v verdict.Verdict) error {
	ios := in.IO
	code := v.Code
	writeFile := func(what, path string, write func(string) error) {
		if path == "" {
			return
		}
		if err := write(path); err != nil {
			fmt.Fprintf(ios.ErrOut, "error: writing the %s report: %s\n", what, termtext.Sanitize(err.Error()))
			code = max(code, exitcode.Local) // a CI gate must not pass without its report
		} else {
			fmt.Fprintf(ios.ErrOut, "%s report written to %s\n", what, path)
		}
	}
	writeFile("JUnit", in.JUnitFile, func(path string) error { return WriteJUnitFile(path, v, in.Evidence) })
	writeFile("HTML", in.HTMLFile, func(path string) error { return WriteHTMLFile(path, v, in.Evidence, in.History, in.Now) })
	for _, problem := range WriteGitHub(in.Getenv, ios.WorkflowCommands(), v, in.Evidence, in.Resume) {
		fmt.Fprintf(ios.ErrOut, "error: GitHub Actions: %s\n", termtext.Sanitize(problem))
		code = max(code, exitcode.Local) // a later step would read missing outputs as empty
	}
	width := 0
	if ios.IsStderrTTY() {
		width = ios.ErrTerminalWidth()
	}
	// The summary is built whole and written at once: one write instead of
	// one per line (a 10-failure story is some 200 lines), and nothing
	// another goroutine prints can land inside it.
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
	WriteNextSteps(&summary, v, in.Resume)
	WriteResumeHint(&summary, v, in.Resume)
	_, _ = ios.ErrOut.Write(summary.Bytes())
	var dataErr error
	if !in.NoData {
		dataErr = WriteData(ios, in.Output, v)
	}
	if dataErr != nil { // a closed pipe is none (iostreams.Stdout): it leaves the verdict's code
		code = max(code, exitcode.Of(dataErr))
		if code == exitcode.Of(dataErr) {
			return dataErr
		}
		fmt.Fprintf(ios.ErrOut, "error: %s\n", termtext.Sanitize(dataErr.Error()))
	}
	if code == 0 {
		return nil
	}
	return &exitcode.Error{Code: code}
}
