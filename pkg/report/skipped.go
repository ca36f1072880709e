package report

import (
	"fmt"
	"io"

	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteSkippedWarnings warns about runs whose test cases were skipped or
// did not run: they pass unless --fail-on-skipped, and a test that did not
// run is rarely what a CI step meant to check.
func WriteSkippedWarnings(w io.Writer, st *iostreams.Styles, v verdict.Verdict) {
	for _, r := range v.Runs {
		n := r.Counts.Skipped + r.Counts.NotRun
		if (n == 0 && r.Class != verdict.RunSkipped) || (r.Class != verdict.RunPassed && r.Class != verdict.RunSkipped) {
			continue
		}
		id := termtext.SanitizeLine(r.ShortID) // from the service when run start waits
		what := fmt.Sprintf("%s of run %s did not run", termtext.Plural(n, "test case"), id)
		if r.Class == verdict.RunSkipped {
			what = fmt.Sprintf("run %s ended SKIPPED: its test cases did not run", id)
		}
		if r.Because == "--fail-on-skipped" {
			fmt.Fprintf(w, "%s: failing because of --fail-on-skipped\n", what)
		} else if r.OK() {
			fmt.Fprintf(w, "%s %s; this counts as a pass (use --fail-on-skipped to fail instead)\n", st.Warning("warning:"), what)
		}
	}
}
