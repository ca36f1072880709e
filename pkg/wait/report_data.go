package wait

import (
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

// WriteData writes the runs as data, for stdout: the detail(s) as JSON or
// YAML (one object for one run, an array for several), or a table of test
// cases.
func WriteData(ios *iostreams.IOStreams, o output.Options, recs []Record) error {
	runs, several := details(recs), len(recs) > 1
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
