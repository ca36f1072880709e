package htmlreport

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/testctl/testctl/pkg/verdict"
)

// largeReport is one failed run of n test cases with perCase network
// requests each, every tenth failed.
func largeReport(n, perCase int) Report {
	r := failingReport()
	run := r.Runs[1]
	run.Cases = nil
	for i := range n {
		ev := sampleEvidence(fmt.Sprintf("rtc-%03d", i), perCase, i%2 == 0)
		run.Cases = append(run.Cases, Case{
			Name: fmt.Sprintf("Test case %03d: check out with item %d", i, i), ShortID: fmt.Sprintf("rtc-%03d", i),
			Class: verdict.Failed, Status: "COMPLETED", Result: "FAILED", ResultTitle: "The order was not confirmed",
			Evaluation: "The agent pressed Pay and the page showed an error.", Attempt: 1, Evidence: ev,
		})
	}
	r.Runs = []Run{run}
	return r
}

func BenchmarkWrite50x1000(b *testing.B) {
	r := largeReport(50, 1000)
	path := filepath.Join(b.TempDir(), "report.html")
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(path, r); err != nil {
			b.Fatal(err)
		}
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.Size())/1e6, "MB")
}
