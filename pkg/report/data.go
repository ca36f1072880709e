package report

import (
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteData writes the runs as data, for stdout: the detail(s) as JSON or
// YAML (one object for one run, an array for several), or a table of test
// cases.
func WriteData(ios *iostreams.IOStreams, o output.Options, v verdict.Verdict) error {
	var runs []*api.RunDetail
	for _, r := range v.Runs {
		if r.Detail != nil {
			runs = append(runs, r.Detail)
		}
	}
	several := len(v.Runs) > 1
	if o.IsStructured() {
		switch {
		case len(runs) == 0:
			return nil
		case !several:
			return output.Print(ios.Out, o, runs[0])
		}
		doc, err := output.Array(runs) // each run's document as the service sent it
		if err != nil {
			return err
		}
		return output.Print(ios.Out, o, doc)
	}
	cases := make([]RunCases, 0, len(runs))
	for _, d := range runs {
		cases = append(cases, RunCases{RunShortID: d.ShortID, Cases: d.RunTestCases})
	}
	return WriteCaseTable(ios, several, cases...)
}
