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
