package wait

import (
	"fmt"
	"io"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/termtext"
)

// WriteSkippedWarnings warns about SKIPPED runs: they pass unless
// failOnSkipped, and a run where nothing ran is rarely what a CI step meant
// to check.
func WriteSkippedWarnings(w io.Writer, st *iostreams.Styles, recs []Record, failOnSkipped bool) {
	for _, r := range recs {
		if r.Detail == nil || r.Detail.Status != api.StatusCompleted || r.Detail.ResultOrEmpty() != api.ResultSkipped {
			continue
		}
		id := termtext.SanitizeLine(r.ShortID) // from the service when run start waits
		if failOnSkipped {
			fmt.Fprintf(w, "run %s ended SKIPPED: failing because of --fail-on-skipped\n", id)
		} else {
			fmt.Fprintf(w, "%s run %s ended SKIPPED: its test cases did not run; "+
				"this counts as a pass (use --fail-on-skipped to fail instead)\n", st.Warning("warning:"), id)
		}
	}
}
