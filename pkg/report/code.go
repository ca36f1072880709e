package report

import (
	"fmt"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/verdict"
)

// The reports that state the process's code (the summary, the step
// summary, the annotations, the outputs, the comment) state the settled
// one, which can be above the runs' verdict: these words say why.

// CodeLine is the verdict's closing line for the terminal: the code the
// process exits with and what it means, with the tally; when the code is
// not the runs' (a report could not be written, --jq failed, a signal),
// why, and the runs' verdict.
func CodeLine(v verdict.Verdict, code int) string {
	word := verdict.Word(code, false)
	if code == v.Code {
		return fmt.Sprintf("%s (exit %d): %s", word, code, v.Tally())
	}
	return fmt.Sprintf("%s (exit %d): %s; the runs' verdict: %s (exit %d), %s", word, code, RaisedWhy(code),
		verdict.Word(v.Code, false), v.Code, v.Tally())
}

// RaisedWhy says why the process's code is above the runs' verdict.
func RaisedWhy(code int) string {
	switch code {
	case exitcode.Usage:
		return "--jq failed on the document (see the error)"
	case exitcode.Local:
		return "a report could not be written (see the error)"
	case exitcode.Interrupted:
		return "interrupted (SIGINT) before the reports were written"
	case exitcode.Terminated:
		return "terminated (SIGTERM) before the reports were written"
	}
	return "see the error"
}
