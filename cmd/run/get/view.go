package get

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/termtext"
)

// view prints a run for people: a status line, then tables. Messages about
// empty sections go to stderr, so stdout stays data only.
type view struct {
	ios        *iostreams.IOStreams
	failedOnly bool
}

// printRun puts the run's status line, with its plan and URL, on stderr
// and only its test case table on stdout: `run get ID | cut -f1` reads the
// table from its header, as `run list` gives its own.
func (v view) printRun(d *api.RunDetail) error {
	st := v.ios.ErrStyles()
	line := fmt.Sprintf("Run %s", st.Bold(termtext.SanitizeLine(d.ShortID)))
	if d.TestPlan != nil {
		if plan := cmp.Or(d.TestPlan.ShortID, d.TestPlan.Name); plan != "" {
			line += " (" + termtext.SanitizeLine(plan) + ")"
		}
	}
	line += ": " + report.ColorStatus(st, termtext.SanitizeLine(d.Status))
	if r := d.ResultOrEmpty(); r != "" {
		line += ", " + report.ColorStatus(st, termtext.SanitizeLine(r))
	}
	if d.URL != "" {
		line += "\n  " + termtext.SanitizeLine(d.URL)
	}
	fmt.Fprintln(v.ios.ErrOut, line)
	if len(d.RunTestCases) == 0 {
		what := "test cases"
		if v.failedOnly {
			what = "failed, skipped or errored test cases"
		}
		fmt.Fprintf(v.ios.ErrOut, "No %s.\n", what)
		return nil
	}
	return report.WriteCaseTable(v.ios, false, report.RunCases{RunShortID: d.ShortID, Cases: d.RunTestCases})
}

func (v view) printIssues(issues []api.Issue) error {
	if len(issues) == 0 {
		fmt.Fprintln(v.ios.ErrOut, "No issues detected.")
		return nil
	}
	fmt.Fprintln(v.ios.Out)
	st := v.ios.Styles()
	t := output.NewTable(v.ios, "issue", "severity", "type", "title", "test cases")
	for _, is := range issues {
		var cases []string
		for _, c := range is.TestCases {
			cases = append(cases, c.ShortID)
		}
		t.AddField(is.ShortID)
		t.AddField(is.Severity, output.WithColor(severityColor(st, is.Severity)))
		t.AddField(is.IssueType)
		t.AddField(is.Title)
		t.AddField(strings.Join(cases, ","))
		t.EndRow()
	}
	return t.Render()
}

// severityColor makes the serious issues stand out; the service's values
// are not published, so unknown ones stay plain.
func severityColor(st *iostreams.Styles, severity string) func(string) string {
	switch strings.ToUpper(severity) {
	case "CRITICAL", "HIGH":
		return st.Failure
	case "MEDIUM":
		return st.Warning
	}
	return func(s string) string { return s }
}
