package wait

import (
	"fmt"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
)

// finish writes every report of a wait that ended and turns the records
// into the exit code: the largest of the runs' codes.
func finish(ios *iostreams.IOStreams, getenv func(string) string, out output.Options, o Options, end End, res Resume, recs []Record) error {
	width := 0
	if ios.IsStderrTTY() {
		width = ios.ErrTerminalWidth()
	}
	WriteSummary(ios.ErrOut, ios.ErrStyles(), width, recs)
	code := 0
	for _, r := range recs {
		code = max(code, r.Code)
	}
	if err := WriteData(ios, out, recs); err != nil {
		return err
	}
	if o.JUnitFile != "" {
		if err := WriteJUnitFile(o.JUnitFile, recs); err != nil {
			fmt.Fprintf(ios.ErrOut, "error: writing the JUnit report: %s\n", termtext.Sanitize(err.Error()))
			code = max(code, cmdutil.ExitLocal) // a CI gate must not pass without its report
		} else {
			fmt.Fprintf(ios.ErrOut, "JUnit report written to %s\n", o.JUnitFile)
		}
	}
	for _, problem := range WriteGitHub(getenv, ios.WorkflowCommands(), recs) {
		fmt.Fprintf(ios.ErrOut, "error: GitHub Actions: %s\n", termtext.Sanitize(problem))
		code = max(code, cmdutil.ExitLocal) // a later step would read missing outputs as empty
	}
	WriteSkippedWarnings(ios.ErrOut, ios.ErrStyles(), recs, o.FailOnSkipped)
	WriteResumeHint(ios.ErrOut, end, res, recs)
	if code == 0 {
		return nil
	}
	return &cmdutil.ExitError{Code: code}
}
