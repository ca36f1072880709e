package report_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/verdict"
)

// These tests drive each report writer alone, over records built by hand:
// no Factory, no server, no report.

func result(s string) *string { return &s }

var (
	failedRun = &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: result(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-0", Name: "Log in", Status: api.StatusCompleted, Result: api.ResultPassed, ResultTitle: "Logged in"},
		{ShortID: "r1-1", Name: "Coupon \x1b[31m", Status: api.StatusCompleted, Result: api.ResultFailed,
			ResultTitle: "Expired coupon accepted", EvaluationThought: "The total dropped.\nNo error shown."},
	}}
	skippedRun = &api.RunDetail{ShortID: "r2", Status: api.StatusCompleted, Result: result(api.ResultSkipped)}
	runningRun = &api.RunDetail{ShortID: "r3", Status: api.StatusRunning}
	records    = []verdict.Record{
		{ShortID: "r1", URL: "https://app.example/r1", Detail: failedRun},
		{ShortID: "r2", Detail: skippedRun},
		{ShortID: "r3", Detail: runningRun, Stop: verdict.TimedOut},
		{ShortID: "r4", Err: errors.New("run r4: HTTP 404")},
	}
)

func plainStyles() *iostreams.Styles {
	ios, _, _, _ := iostreams.Test()
	return ios.ErrStyles()
}

func TestWriteSummaryGivesEachRunsVerdictAndReasons(t *testing.T) {
	var b bytes.Buffer
	report.WriteSummary(&b, plainStyles(), 0, decide(records), nil, report.Resume{})
	got := b.String()
	for _, want := range []string{
		"Run r1: COMPLETED · FAILED — 1 passed · 1 failed\n  https://app.example/r1\n",
		"1. ✗ Coupon  FAILED [r1-1]\n      run r1\n      Expired coupon accepted\n      The total dropped.\n      No error shown.\n      more: testctl logs r1-1",
		"Run r2: COMPLETED · SKIPPED — no test cases",
		"Run r3: still RUNNING when the wait timed out",
		"Run r4: no verdict (see the error above)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Log in") || strings.Contains(got, "\x1b") {
		t.Errorf("a passed case or an escape sequence in the summary:\n%q", got)
	}
}

func TestWriteDataTableAndJSON(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	if err := report.WriteData(ios.Out, ios, output.Options{}, decide(records[:1])); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "r1-1\tCoupon") || !strings.Contains(out.String(), "\tFAILED\tExpired coupon accepted") {
		t.Errorf("table:\n%s", out)
	}
	out.Reset()
	if err := report.WriteData(ios.Out, ios, output.Options{Format: output.FormatJSON}, decide(records)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "[") || strings.Count(out.String(), `"shortId": "r`) != 3+2 {
		t.Errorf("several runs are one JSON array of the runs that were read:\n%s", out)
	}
}

func TestWriteSkippedWarnings(t *testing.T) {
	var b bytes.Buffer
	report.WriteSkippedWarnings(&b, plainStyles(), decide(records))
	if got := b.String(); got != "warning: run r2 ended SKIPPED: its test cases did not run; this counts as a pass (use --fail-on-skipped to fail instead)\n" {
		t.Errorf("got %q", got)
	}
	b.Reset()
	report.WriteSkippedWarnings(&b, plainStyles(), verdict.Decide(records, verdict.Options{FailOnSkipped: true, PassWithNoTests: true}))
	if got := b.String(); got != "run r2 ended SKIPPED: its test cases did not run: failing because of --fail-on-skipped\n" {
		t.Errorf("got %q", got)
	}
}

func TestWriteResumeHintNamesOnlyUnfinishedRuns(t *testing.T) {
	var b bytes.Buffer
	report.WriteResumeHint(&b, decide(records), report.Resume{Timeout: 10 * time.Minute})
	want := "\ntimed out after 10m0s: run r3 still RUNNING. The run goes on; resume waiting with:\n  testctl run wait r3\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
	b.Reset()
	report.WriteResumeHint(&b, decide(records[:2]), report.Resume{Timeout: time.Minute})
	if b.Len() != 0 {
		t.Errorf("a hint after every run ended: %q", b.String())
	}
}

// GitHub's reports exist only in Actions, append to the files it gives,
// and one that cannot be written (8) stops neither of the others.
func TestGitHubReportersOnlyInActionsAppendAndStandAlone(t *testing.T) {
	dir := t.TempDir()
	summary, outputs := filepath.Join(dir, "summary.md"), filepath.Join(dir, "missing", "output")
	if err := os.WriteFile(summary, []byte("# before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": outputs}
	var stderr bytes.Buffer
	getenv := func(k string) string { return env[k] }
	if rs := report.GitHubReporters(getenv, &stderr, report.Resume{}); rs != nil {
		t.Fatalf("reporters outside GitHub Actions: %v", rs)
	}
	env["GITHUB_ACTIONS"] = "true"
	var errOut bytes.Buffer
	m := &report.Multiplexer{ErrOut: &errOut, Reporters: report.GitHubReporters(getenv, &stderr, report.Resume{})}
	err := m.End(report.Outcome{Verdict: decide(records)})
	if exitcode.Of(err) != exitcode.Local || strings.Count(errOut.String(), "error: ") != 1 ||
		!strings.Contains(errOut.String(), "GitHub Actions: writing the step outputs") {
		t.Errorf("exit %d, stderr %q: want 8 and one error for the unwritable outputs file", exitcode.Of(err), errOut.String())
	}
	// The outputs file's probe failed before any report stated a code:
	// the annotations and the step summary state 8, and why.
	if n := strings.Count(stderr.String(), "::error "); n != 4 || !strings.HasPrefix(stderr.String(), "::error title=testctl%3A exit 8 (local)::") {
		t.Errorf("%d annotations, want the code's first, then one for the failed case, one for the timeout and one for the run without a verdict:\n%s", n, stderr.String())
	}
	md, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(md), "# before\n## ❌ testctl: failed (exit 8)") || !strings.Contains(string(md), "The runs' verdict: timeout (exit 7)") {
		t.Errorf("summary not appended, or not stating exit 8:\n%s", md)
	}
}

// decide decides with --pass-with-no-tests: r2 lists no test case, and a
// SKIPPED run is what these tests are about.
func decide(recs []verdict.Record) verdict.Verdict {
	return verdict.Decide(recs, verdict.Options{PassWithNoTests: true})
}
