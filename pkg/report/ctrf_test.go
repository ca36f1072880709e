package report

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/ctrftest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/verdict"
)

type ctrfDoc struct {
	ReportFormat string `json:"reportFormat"`
	SpecVersion  string `json:"specVersion"`
	Results      struct {
		Tool        map[string]string `json:"tool"`
		Environment map[string]string `json:"environment"`
		Summary     map[string]int64  `json:"summary"`
		Tests       []struct {
			Name      string         `json:"name"`
			Status    string         `json:"status"`
			Duration  *int64         `json:"duration"`
			Start     int64          `json:"start"`
			Stop      int64          `json:"stop"`
			Suite     []string       `json:"suite"`
			Message   string         `json:"message"`
			AI        string         `json:"ai"`
			RawStatus string         `json:"rawStatus"`
			Flaky     bool           `json:"flaky"`
			Retries   int            `json:"retries"`
			Extra     map[string]any `json:"extra"`
		} `json:"tests"`
		Extra map[string]any `json:"extra"`
	} `json:"results"`
}

func readCTRF(t *testing.T, path string) ctrfDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc ctrfDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return doc
}

// Every outcome of the verdict becomes a CTRF status, from the one
// classifier: failed and errored are failed, skipped and not run skipped,
// flaky passed with flaky and retries; a run whose code no test case
// explains is a failed test of its own, as in JUnit; the document is
// valid for the format's reference implementation.
func TestCTRFReportMapsEveryOutcome(t *testing.T) {
	path, recs, v := everyOutcomeCTRF(t)
	checkEveryOutcome(t, path, recs, v)
}

// The reports of both tests here, read by the format's reference
// implementation: skipped as a whole without node and the package.
func TestCTRFReportsAreValidForTheReferenceImplementation(t *testing.T) {
	ctrftest.Require(t)
	path, _, _ := everyOutcomeCTRF(t)
	ctrftest.Validate(t, path)
	ctrftest.Validate(t, classedCTRF(t))
}

func everyOutcomeCTRF(t *testing.T) (string, []verdict.Record, verdict.Verdict) {
	hostile := "Total \x1b[31mwrong\x1b[0m & <b>\"bold\"</b>\x07"
	start, end := "2026-11-21T09:00:00Z", "2026-11-21T09:00:02.250Z"
	failed := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-0", Name: "Log in", Status: api.StatusCompleted, Result: api.ResultPassed, ResultTitle: "ok", StartedAt: &start, FinishedAt: &end},
		{ShortID: "r1-1", Name: "Coupon", Status: api.StatusCompleted, Result: api.ResultFailed, ResultTitle: hostile, EvaluationThought: "the total dropped"},
		{ShortID: "r1-2", Name: "Email", Status: api.StatusCompleted, Result: api.ResultSkipped, ResultTitle: "Not run: waits for coupon"},
	}}
	errored := &api.RunDetail{ShortID: "r2", Status: api.StatusError, RunTestCases: []api.RunTestCase{
		{ShortID: "r2-0", Name: "Search", Status: api.StatusError, ResultTitle: "Environment down"},
	}}
	running := &api.RunDetail{ShortID: "r3", Status: api.StatusRunning, RunTestCases: []api.RunTestCase{
		{ShortID: "r3-0", Name: "Slow", Status: api.StatusRunning},
	}}
	recs := []verdict.Record{
		{ShortID: "r1", URL: "https://app.example/runs/r1", Plan: verdict.Plan{Name: "Checkout", ShortID: "pln-checkout_1"}, Detail: failed,
			StartedAt: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), FinishedAt: time.Date(2026, 11, 21, 9, 1, 30, 0, time.UTC)},
		{ShortID: "r2", Plan: verdict.Plan{Name: "Search"}, Detail: errored},
		{ShortID: "r3", Detail: running, Stop: verdict.TimedOut},
		{ShortID: "r5", Err: errors.New("run r5: GET /v1/run/r5: HTTP 404 Not Found")},
		retried(),
	}
	v := decide(recs)
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "octo/app", "GITHUB_RUN_ID": "9001",
		"GITHUB_SHA": "abc123", "GITHUB_REF": "refs/heads/feature"}
	path := filepath.Join(t.TempDir(), "ctrf.json")
	now := time.Date(2026, 11, 21, 9, 5, 0, 0, time.UTC)
	if err := WriteCTRFFile(path, v, nil, func(k string) string { return env[k] }, now); err != nil {
		t.Fatal(err)
	}
	return path, recs, v
}

func checkEveryOutcome(t *testing.T, path string, recs []verdict.Record, v verdict.Verdict) {
	doc := readCTRF(t, path)
	if doc.ReportFormat != "CTRF" || doc.SpecVersion != "0.0.0" || doc.Results.Tool["name"] != "testctl" || doc.Results.Tool["version"] == "" {
		t.Errorf("header: %+v %+v", doc, doc.Results.Tool)
	}
	if e := doc.Results.Environment; e["branchName"] != "feature" || e["commit"] != "abc123" || e["buildUrl"] != "https://github.com/octo/app/actions/runs/9001" {
		t.Errorf("environment %v", e)
	}
	type want struct{ suite, status, message string }
	wants := map[string]want{
		"Log in": {"Checkout", "passed", "ok"}, "Coupon": {"Checkout", "failed", "Total wrong & <b>\"bold\"</b>"},
		"Email": {"Checkout", "skipped", "Not run: waits for coupon"}, "Search": {"Search", "failed", "Environment down"},
		"Slow":  {"testctl", "skipped", "still RUNNING when the wait timed out"},
		"login": {"testctl", "passed", ""}, "search": {"testctl", "passed", ""}, "coupon": {"testctl", "failed", "expired for good"},
	}
	runVerdicts := 0
	counts := map[string]int64{}
	for _, tc := range doc.Results.Tests {
		counts[tc.Status]++
		if tc.Duration == nil {
			t.Errorf("%s: no duration", tc.Name)
		}
		if tc.Name == runCaseName {
			runVerdicts++
			if tc.Status != "failed" || tc.Message == "" {
				t.Errorf("run verdict test: %s %q", tc.Status, tc.Message)
			}
			continue
		}
		w, ok := wants[tc.Name]
		if !ok || len(tc.Suite) != 1 {
			t.Errorf("unexpected test %q in %v", tc.Name, tc.Suite)
			continue
		}
		// A run of no known plan is in suite testctl, as in JUnit.
		if tc.Suite[0] != w.suite || tc.Status != w.status || !strings.Contains(tc.Message, w.message) {
			t.Errorf("%s: suite %v status %s message %q, want %+v", tc.Name, tc.Suite, tc.Status, tc.Message, w)
		}
		switch tc.Name {
		case "Log in":
			if *tc.Duration != 2250 || tc.Stop-tc.Start != 2250 {
				t.Errorf("Log in: duration %d, %d..%d, want 2250 ms from the service's times", *tc.Duration, tc.Start, tc.Stop)
			}
		case "Coupon":
			if tc.AI != "the total dropped" || tc.Extra["runShortId"] != "r1" || tc.Extra["runUrl"] != "https://app.example/runs/r1" || *tc.Duration != 0 {
				t.Errorf("Coupon: ai %q extra %v duration %d", tc.AI, tc.Extra, *tc.Duration)
			}
		case "search":
			if !tc.Flaky || tc.Retries != 1 {
				t.Errorf("search passed on a retry: flaky %v retries %d", tc.Flaky, tc.Retries)
			}
		case "coupon":
			if tc.Flaky || tc.Retries != 2 || tc.Extra["runShortId"] != "r3" || tc.Extra["attempt"] != float64(3) {
				t.Errorf("coupon, rerun twice: flaky %v retries %d extra %v", tc.Flaky, tc.Retries, tc.Extra)
			}
		}
	}
	// The timed-out run and the one never read say their verdict as a test
	// of their own; the errored run's test case already says why.
	if runVerdicts != 2 {
		t.Errorf("%d run verdict tests, want the timed-out run's and the unread one's", runVerdicts)
	}
	s := doc.Results.Summary
	if s["tests"] != int64(len(doc.Results.Tests)) || s["passed"] != counts["passed"] || s["failed"] != counts["failed"] ||
		s["skipped"] != counts["skipped"] || s["flaky"] != 1 || s["pending"] != 0 || s["other"] != 0 {
		t.Errorf("summary %v, tests counted %v", s, counts)
	}
	if s["start"] != recs[0].StartedAt.UnixMilli() || s["stop"] != recs[0].FinishedAt.UnixMilli() {
		t.Errorf("summary start %d stop %d, want the runs' times", s["start"], s["stop"])
	}
	if doc.Results.Extra["verdict"] != verdict.Word(v.Code, false) {
		t.Errorf("extra %v, want the verdict %s", doc.Results.Extra, verdict.Word(v.Code, false))
	}
}

// A failure's class against the baseline and its evidence are in its
// extra; outside a CI there is no environment.
func TestCTRFCarriesTheFailureClass(t *testing.T) {
	doc := readCTRF(t, classedCTRF(t))
	classes := map[string]any{}
	for _, tc := range doc.Results.Tests {
		classes[tc.Name] = tc.Extra["failureClass"]
		if tc.Extra["baselineBranch"] != "main" {
			t.Errorf("%s: extra %v names no baseline", tc.Name, tc.Extra)
		}
	}
	if classes["Pay"] != "known" || classes["Login"] != "new" || !strings.HasPrefix(classes["Coupon"].(string), "quarantined") || classes["Search"] != nil {
		t.Errorf("failure classes %v", classes)
	}
	if doc.Results.Environment != nil {
		t.Errorf("environment %v outside a CI", doc.Results.Environment)
	}
	if s := doc.Results.Summary; s["start"] != classedNow.UnixMilli() || s["stop"] != classedNow.UnixMilli() {
		t.Errorf("a run without times spans the report's time: %v", s)
	}
}

var classedNow = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)

func classedCTRF(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "ctrf.json")
	if err := WriteCTRFFile(path, classedVerdict(verdict.FailOnNew), nil, func(string) string { return "" }, classedNow); err != nil {
		t.Fatal(err)
	}
	return path
}
