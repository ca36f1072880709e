package shared

import (
	"github.com/testctl/testctl/pkg/api"
)

// runReport is everything the reports say about one run once a wait ends.
type runReport struct {
	ShortID string
	URL     string
	Detail  *api.RunDetail // nil when the run was never read
	// Pending says why the run had not finished, when the wait ended first
	// ("the wait timed out"); unfinished test cases are reported with it.
	Pending string
	Err     error // why polling stopped without a verdict (404, outage)
	Code    int   // the run's exit code
}

// finished reports whether the run reached a final status.
func (r runReport) finished() bool {
	return r.Detail != nil && api.IsTerminalStatus(r.Detail.Status)
}

// reportsFromDetails wraps details that were read elsewhere (run get),
// without a wait around them.
func reportsFromDetails(runs []*api.RunDetail, urls map[string]string, failOnSkipped bool) []runReport {
	out := make([]runReport, 0, len(runs))
	for _, d := range runs {
		if d == nil {
			continue
		}
		r := runReport{ShortID: d.ShortID, URL: urls[d.ShortID], Detail: d, Code: verdictCode(d, failOnSkipped)}
		if !r.finished() {
			r.Pending = "the report was written"
		}
		out = append(out, r)
	}
	return out
}

// details returns the details that were read, in the order of the runs.
func details(reports []runReport) []*api.RunDetail {
	var out []*api.RunDetail
	for _, r := range reports {
		if r.Detail != nil {
			out = append(out, r.Detail)
		}
	}
	return out
}
