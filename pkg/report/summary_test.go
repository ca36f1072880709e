package report_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/verdict"
)

// On a terminal the reasons of a failed case wrap between words under
// their indent; in a log (width 0) each keeps its lines.
func TestSummaryWrapsReasonsAtWords(t *testing.T) {
	thought := "After the coupon was applied the total dropped by ten percent and no error was shown to the user."
	run := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: result(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-1", Name: "Coupon", Status: api.StatusCompleted, Result: api.ResultFailed,
			ResultTitle: "Expired coupon accepted", EvaluationThought: thought},
	}}
	recs := []verdict.Record{{ShortID: "r1", Detail: run}}
	tests := []struct {
		width int
		lines int // lines of the evaluation
	}{
		{0, 1},
		{200, 1},
		{40, 3},
	}
	for _, tt := range tests {
		var b strings.Builder
		report.WriteSummary(&b, plainStyles(), tt.width, decide(recs), nil, report.Resume{})
		var reason []string
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.Contains(line, "testctl ") || strings.TrimSpace(line) == "run r1" || strings.TrimSpace(line) == "more:" {
				continue // a command stays whole, to be copied, under its label; the terminal wraps it
			}
			if n := utf8.RuneCountInString(line); tt.width > 0 && n > tt.width {
				t.Errorf("width %d: line of %d columns: %q", tt.width, n, line)
			}
			if strings.HasPrefix(line, "      ") && !strings.Contains(line, "Expired coupon") {
				reason = append(reason, strings.TrimPrefix(line, "      "))
			}
		}
		if len(reason) != tt.lines {
			t.Errorf("width %d: evaluation on %d lines, want %d:\n%s", tt.width, len(reason), tt.lines, b.String())
		}
		if got := strings.Join(reason, " "); got != thought {
			t.Errorf("width %d: evaluation rejoined is %q, want every word whole:\n%s", tt.width, got, b.String())
		}
	}
}

// A plan whose start failed is in the summary, with why, under the runs.
func TestSummaryNamesAPlanNotStarted(t *testing.T) {
	recs := []verdict.Record{verdict.NotStartedRecord(verdict.Plan{ShortID: "pln-gone_1"},
		&api.HTTPError{Method: "POST", Path: "/v1/run", StatusCode: 404, Message: "test plan pln-gone_1 not found"})}
	var b strings.Builder
	report.WriteSummary(&b, plainStyles(), 0, decide(recs), nil, report.Resume{})
	if !strings.Contains(b.String(), "plan pln-gone_1: not started: POST /v1/run: HTTP 404") {
		t.Errorf("summary:\n%s", b.String())
	}
}
