package shared

import (
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
)

// printSummary writes the human summary of a wait to stderr: the verdict of
// each run and, for every test case that did not pass, why. It goes to
// stderr whatever the output format, so a CI log shows the reasons even
// when stdout carries JSON for a program.
func printSummary(w io.Writer, st *iostreams.Styles, reports []runReport) {
	for _, r := range reports {
		fmt.Fprintln(w)
		id := termtext.SanitizeLine(r.ShortID)
		switch {
		case r.Detail == nil:
			fmt.Fprintf(w, "%s Run %s: no verdict (see the error above)\n", st.FailureIcon(), id)
			continue
		case r.Pending != "":
			fmt.Fprintf(w, "%s Run %s: still %s when %s — %s\n", st.WarningIcon(), id,
				st.Status(termtext.SanitizeLine(r.Detail.Status)), r.Pending, countCases(r.Detail.RunTestCases))
		case r.Err != nil:
			fmt.Fprintf(w, "%s Run %s: last seen %s, no verdict (see the error above)\n", st.FailureIcon(), id,
				st.Status(termtext.SanitizeLine(r.Detail.Status)))
		default:
			icon := st.SuccessIcon()
			if r.Code != 0 {
				icon = st.FailureIcon()
			}
			fmt.Fprintf(w, "%s Run %s: %s — %s\n", icon, id, st.Status(termtext.SanitizeLine(statusText(r.Detail))),
				countCases(r.Detail.RunTestCases))
		}
		if r.URL != "" {
			fmt.Fprintf(w, "  %s\n", termtext.SanitizeLine(r.URL))
		}
		lf := lineFormat{st: st}
		for _, tc := range r.Detail.RunTestCases {
			if !api.IsTerminalStatus(tc.Status) || caseOutcome(tc) == api.ResultPassed {
				continue
			}
			fmt.Fprintf(w, "  %s %s [%s] %s\n", lf.icon(tc), termtext.SanitizeLine(tc.Name),
				termtext.SanitizeLine(tc.ShortID), st.Status(termtext.SanitizeLine(caseOutcome(tc))))
			for _, text := range []string{tc.ResultTitle, tc.EvaluationThought} {
				if text = strings.TrimSpace(termtext.Sanitize(text)); text != "" {
					fmt.Fprintf(w, "      %s\n", strings.ReplaceAll(text, "\n", "\n      "))
				}
			}
		}
	}
}

// printData writes the runs to stdout: the detail(s) as JSON or YAML (one
// object for one run, an array for several), or a table of test cases.
func printData(ios *iostreams.IOStreams, o output.Options, reports []runReport, several bool) error {
	runs := details(reports)
	if o.IsStructured() {
		switch {
		case len(runs) == 0:
			return nil
		case !several:
			return output.Print(ios.Out, o, runs[0])
		}
		return output.Print(ios.Out, o, runs)
	}
	headers := []string{"test case", "name", "status", "result", "title"}
	if several {
		headers = append([]string{"run"}, headers...)
	}
	t := output.NewTable(ios, headers...)
	st := ios.Styles()
	rows := 0
	for _, d := range runs {
		for _, tc := range d.RunTestCases {
			if several {
				t.AddField(d.ShortID)
			}
			t.AddField(tc.ShortID)
			t.AddField(tc.Name, output.WithTruncate(40))
			t.AddField(tc.Status, output.WithColor(st.Status))
			t.AddField(tc.Result, output.WithColor(st.Status))
			t.AddField(tc.ResultTitle)
			t.EndRow()
			rows++
		}
	}
	if rows == 0 {
		return nil
	}
	return t.Render()
}
