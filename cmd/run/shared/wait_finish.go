package shared

import (
	"fmt"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
)

// finish reports the outcome of a wait and turns it into the exit code.
func (w *waiter) finish(f *cmdutil.Factory, out output.Options, end waitEnd) error {
	ios := f.IOStreams
	reports := w.reports(end)
	printSummary(ios.ErrOut, ios.ErrStyles(), reports)
	code := 0
	for _, r := range reports {
		code = max(code, r.Code)
	}
	if err := printData(ios, out, reports, len(reports) > 1); err != nil {
		return err
	}
	if w.opts.JUnitFile != "" {
		if err := writeJUnit(w.opts.JUnitFile, reports); err != nil {
			fmt.Fprintf(ios.ErrOut, "error: writing the JUnit report: %s\n", termtext.Sanitize(err.Error()))
			code = max(code, cmdutil.ExitFailed) // a CI gate must not pass without its report
		} else {
			fmt.Fprintf(ios.ErrOut, "JUnit report written to %s\n", w.opts.JUnitFile)
		}
	}
	if inGitHubActions(f) {
		for _, warning := range writeGitHub(f, reports) {
			fmt.Fprintf(ios.ErrOut, "warning: GitHub Actions: %s\n", termtext.Sanitize(warning))
		}
	}
	w.printSkipped(f, reports)
	w.printEnd(f, end)
	if code == 0 {
		return nil
	}
	return &cmdutil.ExitError{Code: code}
}

// reports freezes the runs' states; unfinished runs get the code of how
// the wait ended.
func (w *waiter) reports(end waitEnd) []runReport {
	pendingWhy, pendingCode := "the wait timed out", cmdutil.ExitTimeout
	if end == endInterrupted {
		pendingWhy, pendingCode = "the wait was interrupted", cmdutil.ExitInterrupted
	}
	out := make([]runReport, 0, len(w.states))
	for _, s := range w.states {
		r := runReport{ShortID: s.target.ShortID, URL: s.target.URL, Detail: s.detail, Err: s.err, Code: s.code}
		if !s.done {
			r.Pending, r.Code = pendingWhy, pendingCode
		}
		out = append(out, r)
	}
	return out
}

// printSkipped warns about SKIPPED runs: they pass unless --fail-on-skipped,
// and a run where nothing ran is rarely what a CI step meant to check.
func (w *waiter) printSkipped(f *cmdutil.Factory, reports []runReport) {
	for _, r := range reports {
		if r.Detail == nil || r.Detail.Status != api.StatusCompleted || r.Detail.ResultOrEmpty() != api.ResultSkipped {
			continue
		}
		r.ShortID = termtext.SanitizeLine(r.ShortID) // from the service when run start waits
		if w.opts.FailOnSkipped {
			fmt.Fprintf(f.IOStreams.ErrOut, "run %s ended SKIPPED: failing because of --fail-on-skipped\n", r.ShortID)
		} else {
			fmt.Fprintf(f.IOStreams.ErrOut, "%s run %s ended SKIPPED: its test cases did not run; "+
				"this counts as a pass (use --fail-on-skipped to fail instead)\n", f.IOStreams.ErrStyles().Warning("warning:"), r.ShortID)
		}
	}
}

// printEnd says how to resume when the wait ended before the runs did:
// they go on in the service either way.
func (w *waiter) printEnd(f *cmdutil.Factory, end waitEnd) {
	pending := w.pending()
	if end == endAllDone || len(pending) == 0 {
		return
	}
	var ids, states []string
	for _, s := range pending {
		id := termtext.SanitizeLine(s.target.ShortID)
		ids = append(ids, id)
		status := "not seen yet"
		if s.detail != nil {
			status = "still " + termtext.SanitizeLine(s.detail.Status)
		}
		states = append(states, fmt.Sprintf("run %s %s", id, status))
	}
	what := fmt.Sprintf("timed out after %s", w.opts.Timeout)
	if end == endInterrupted {
		what = "interrupted"
	}
	fmt.Fprintf(f.IOStreams.ErrOut, "\n%s: %s. The run goes on; resume waiting with:\n  %s\n",
		what, strings.Join(states, ", "), ResumeCommand(ids))
}
