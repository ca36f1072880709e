package report

import (
	"cmp"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
)

// RunCases are the test cases of one run, as a row group of the case table.
type RunCases struct {
	RunShortID string
	Cases      []api.RunTestCase
}

// WriteCaseTable writes the one table of run test cases that `run get` and
// the data of a wait share: SHORT ID, NAME, STATUS, RESULT, RESULT TITLE,
// preceded by a RUN column when runColumn is set (cases of several runs).
// It writes nothing when there is no case: the caller says so on stderr,
// or not at all. A table a terminal shortened is followed by the note on
// stderr that says where it is whole.
func WriteCaseTable(ios *iostreams.IOStreams, runColumn bool, runs ...RunCases) error {
	// A case's short id that begins with its run's ("r1a2b3-2") already
	// says the run: the column would only repeat it, and a narrow terminal
	// has no room for that. Off a terminal the columns stay as they are,
	// for scripts.
	if runColumn && ios.IsStdoutTTY() && idsNameTheirRuns(runs) {
		runColumn = false
	}
	headers := []string{"short id", "name", "status", "result", "result title"}
	if runColumn {
		headers = append([]string{"run"}, headers...)
	}
	t := output.NewTable(ios, headers...)
	st := ios.Styles()
	status := func(word string) string { return ColorStatus(st, word) }
	for _, r := range runs {
		for _, tc := range r.Cases {
			if runColumn {
				t.AddField(r.RunShortID, output.WithoutTruncation()) // an id to copy, as in run list
			}
			// The name is what a reader looks for: a terminal too narrow
			// for every column drops the title, then the status (the
			// result says how a case ended), before it cuts the name.
			t.AddField(tc.ShortID)
			t.AddField(tc.Name, output.Primary())
			t.AddField(tc.Status, output.WithColor(status), output.DropWhenNarrow(2))
			// A dash marks a result not given yet (a case still running), so
			// the columns of a terminal table stay readable.
			t.AddField(cmp.Or(tc.Result, "-"), output.WithColor(status))
			t.AddField(tc.ResultTitle, output.DropWhenNarrow(1))
			t.EndRow()
		}
	}
	if err := t.Render(); err != nil { // which writes nothing, not even the header, without rows
		return err
	}
	output.NoteShortened(ios, t)
	return nil
}

// idsNameTheirRuns reports whether every case's short id starts with its
// run's short id and a dash.
func idsNameTheirRuns(runs []RunCases) bool {
	for _, r := range runs {
		for _, tc := range r.Cases {
			if r.RunShortID == "" || !strings.HasPrefix(tc.ShortID, r.RunShortID+"-") {
				return false
			}
		}
	}
	return true
}
