package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/verdict"
)

func readJUnit(t *testing.T, path string) (JUnitSuites, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc JUnitSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("report is not valid XML: %v\n%s", err, data)
	}
	return doc, string(data)
}

func TestJUnitReportMapsEveryOutcome(t *testing.T) {
	hostile := "Total \x1b[31mwrong\x1b[0m & <b>\"bold\"</b>\x07\x01 \u202eevil"
	failed := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-0", Name: "Log in", Status: api.StatusCompleted, Result: api.ResultPassed, ResultTitle: "ok"},
		{ShortID: "r1-1", Name: "Coupon <expired>", Status: api.StatusCompleted, Result: api.ResultFailed, ResultTitle: hostile, EvaluationThought: "line one\nline two"},
		{ShortID: "r1-2", Name: "Email", Status: api.StatusCompleted, Result: api.ResultSkipped, ResultTitle: "Not run: waits for coupon"},
	}}
	errored := &api.RunDetail{ShortID: "r2", Status: api.StatusError, RunTestCases: []api.RunTestCase{
		{ShortID: "r2-0", Name: "Search", Status: api.StatusError, ResultTitle: "Environment down"},
		{ShortID: "r2-1", Name: "Cart", Status: api.StatusCancelled, ResultTitle: "Cancelled"},
	}}
	running := &api.RunDetail{ShortID: "r3", Status: api.StatusRunning, RunTestCases: []api.RunTestCase{
		{ShortID: "r3-0", Name: "Slow", Status: api.StatusRunning},
		{ShortID: "r3-1", Name: "Done", Status: api.StatusCompleted, Result: api.ResultPassed},
	}}
	cancelledBare := &api.RunDetail{ShortID: "r4", Status: api.StatusCancelled}
	recs := []verdict.Record{
		{ShortID: "r1", URL: "https://app.example/runs/r1", Plan: verdict.Plan{Name: "Checkout", ShortID: "pln-checkout_1"}, Detail: failed,
			StartedAt: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), FinishedAt: time.Date(2026, 11, 21, 9, 1, 30, 500e6, time.UTC)},
		{ShortID: "r2", Detail: errored},
		{ShortID: "r3", Detail: running, Stop: verdict.TimedOut},
		{ShortID: "r4", Detail: cancelledBare},
		{ShortID: "r5", Err: errors.New("run r5: GET /v1/run/r5: HTTP 404 Not Found")},
	}
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnitFile(path, decide(recs), nil); err != nil {
		t.Fatal(err)
	}
	doc, raw := readJUnit(t, path)
	if strings.ContainsAny(raw, "\x1b\x07\x01\u202e") {
		t.Errorf("control characters reached the XML:\n%q", raw)
	}
	if len(doc.Suites) != 5 {
		t.Fatalf("%d suites, want 5", len(doc.Suites))
	}
	if doc.Tests != 10 || doc.Failures != 1 || doc.Errors != 5 || doc.Skipped != 2 {
		t.Errorf("totals tests=%d failures=%d errors=%d skipped=%d", doc.Tests, doc.Failures, doc.Errors, doc.Skipped)
	}
	s1 := doc.Suites[0]
	if s1.Name != "Checkout" || s1.Tests != 3 || s1.Failures != 1 || s1.Skipped != 1 || s1.Cases[1].Classname != "Checkout" {
		t.Errorf("suite r1: %+v", s1)
	}
	if s1.Time != "90.500" || !hasProperty(s1, "run_started_at", "2026-11-21T09:00:00Z") {
		t.Errorf("suite r1 times: time=%q properties=%v", s1.Time, s1.Properties)
	}
	if !hasProperty(s1, "run_url", "https://app.example/runs/r1") || !hasProperty(s1, "run_result", "FAILED") ||
		!hasProperty(s1, "run_short_id", "r1") || !hasProperty(s1, "run_attempt", "1") {
		t.Errorf("suite r1 properties: %+v", s1.Properties)
	}
	f := s1.Cases[1].Failure
	if f == nil || f.Message != "Total wrong & <b>\"bold\"</b> evil" || f.Text != "line one\nline two" || s1.Cases[1].Name != "Coupon <expired>" {
		t.Errorf("failure: %+v", f)
	}
	if s1.Cases[0].Failure != nil || s1.Cases[0].Error != nil || s1.Cases[0].Skipped != nil {
		t.Errorf("passed case has an outcome: %+v", s1.Cases[0])
	}
	if sk := s1.Cases[2].Skipped; sk == nil || sk.Message != "Not run: waits for coupon" {
		t.Errorf("skipped: %+v", s1.Cases[2])
	}
	if s2 := doc.Suites[1]; s2.Errors != 2 || s2.Cases[0].Error.Type != "ERROR" || s2.Cases[1].Error.Type != "CANCELLED" {
		t.Errorf("suite r2: %+v", s2)
	}
	s3 := doc.Suites[2]
	if sk := s3.Cases[0].Skipped; sk == nil || sk.Message != "still RUNNING when the wait timed out" {
		t.Errorf("unfinished case: %+v", s3.Cases[0])
	}
	if e := s3.Cases[2].Error; s3.Errors != 1 || e == nil || e.Type != "TIMED_OUT" || e.Message != "still RUNNING when the wait timed out" {
		t.Errorf("a run that timed out must not look green: %+v", s3)
	}
	if s4 := doc.Suites[3]; s4.Tests != 1 || s4.Errors != 1 || s4.Cases[0].Error.Message != "the run ended CANCELLED" {
		t.Errorf("a cancelled run without test cases must not look green: %+v", s4)
	}
	if s5 := doc.Suites[4]; s5.Errors != 1 || !strings.Contains(s5.Cases[0].Error.Message, "404") {
		t.Errorf("a run never read: %+v", s5)
	}
}

func hasProperty(s JUnitSuite, name, value string) bool {
	for _, p := range s.Properties {
		if p.Name == name && p.Value == value {
			return true
		}
	}
	return false
}

func TestWriteJUnitFileReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := &api.RunDetail{ShortID: "r9", Status: api.StatusCompleted, Result: strp(api.ResultPassed),
		RunTestCases: []api.RunTestCase{{ShortID: "r9-0", Name: "A", Status: api.StatusCompleted, Result: api.ResultPassed}}}
	if err := WriteJUnitFile(path, decide([]verdict.Record{{ShortID: "r9", URL: "https://x/r9", Detail: run}}), nil); err != nil {
		t.Fatal(err)
	}
	doc, raw := readJUnit(t, path)
	if !strings.HasPrefix(raw, "<?xml") || doc.Tests != 1 || !hasProperty(doc.Suites[0], "run_url", "https://x/r9") {
		t.Errorf("report:\n%s", raw)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Errorf("mode %04o", info.Mode().Perm())
	}
	if err := WriteJUnitFile(filepath.Join(dir, "missing", "r.xml"), decide([]verdict.Record{{ShortID: "r9", Detail: run}}), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// Every run whose code is not 0 carries a run-level element saying why, even
// when none of its test cases failed.
func TestJUnitRunLevelVerdict(t *testing.T) {
	emptyFailed := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed)}
	skipped := &api.RunDetail{ShortID: "r2", Status: api.StatusCompleted, Result: strp(api.ResultSkipped),
		RunTestCases: []api.RunTestCase{{ShortID: "r2-0", Name: "A", Status: api.StatusCompleted, Result: api.ResultSkipped}}}
	slow := &api.RunDetail{ShortID: "r3", Status: api.StatusRunning,
		RunTestCases: []api.RunTestCase{{ShortID: "r3-0", Name: "A", Status: api.StatusCompleted, Result: api.ResultPassed}}}
	passed := &api.RunDetail{ShortID: "r5", Status: api.StatusCompleted, Result: strp(api.ResultPassed),
		RunTestCases: []api.RunTestCase{tc("r5-1", "login", api.ResultPassed, "")}}
	empty := &api.RunDetail{ShortID: "r8", Status: api.StatusCompleted, Result: strp(api.ResultPassed)}
	failedOnce := &api.RunDetail{ShortID: "r6", Status: api.StatusCompleted, Result: strp(api.ResultFailed),
		RunTestCases: []api.RunTestCase{tc("r6-1", "search", api.ResultFailed, "timed out")}}
	passedOnRetry := &api.RunDetail{ShortID: "r7", Status: api.StatusCompleted, Result: strp(api.ResultPassed),
		RunTestCases: []api.RunTestCase{tc("r7-1", "search", api.ResultPassed, "")}}
	recs := []verdict.Record{
		{ShortID: "r1", Plan: verdict.Plan{TestCases: true}, Detail: emptyFailed},
		{ShortID: "r2", Plan: verdict.Plan{ShortID: "pln-skip_1"}, Detail: skipped},
		{ShortID: "r3", Detail: slow, Stop: verdict.Interrupted},
		{ShortID: "r4", Stop: verdict.TimedOut},
		// --fail-on-flaky: the run PASSED, its flakiness fails it.
		{ShortID: "r7", Plan: verdict.Plan{ShortID: "pln-flaky_1"}, Detail: passedOnRetry, RetryLimit: 1,
			Earlier: []verdict.Attempt{{ShortID: "r6", Detail: failedOnce}}},
		verdict.NotStartedRecord(verdict.Plan{ShortID: "pln-gone_1"}, &api.HTTPError{StatusCode: 404, Message: "test plan pln-gone_1 not found"}),
		{ShortID: "r5", Detail: passed},
		{ShortID: "r8", Plan: verdict.Plan{ShortID: "pln-empty_1"}, Detail: empty},
	}
	var b bytes.Buffer
	if err := WriteJUnit(&b, verdict.Decide(recs, verdict.Options{FailOnSkipped: true, FailOnFlaky: true}), nil); err != nil {
		t.Fatal(err)
	}
	var doc JUnitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ suite, kind, typ, msg string }{
		{"test cases", "failure", "FAILED", "the run ended COMPLETED · FAILED with no test cases"},
		{"pln-skip_1", "failure", "SKIPPED", "the run ended COMPLETED · SKIPPED: failing because of --fail-on-skipped (1 test case skipped or not run)"},
		{"testctl", "error", "INTERRUPTED", "still RUNNING when the wait was interrupted"},
		{"testctl", "error", "TIMED_OUT", "no answer before the wait timed out"},
		{"pln-flaky_1", "failure", "FLAKY", "the run ended COMPLETED · PASSED: failing because of --fail-on-flaky (1 test case passed only on a retry)"},
		{"pln-gone_1", "error", "NOT_STARTED", ""},
	} {
		s := doc.Suites[i]
		last := s.Cases[len(s.Cases)-1]
		got := last.Error
		if want.kind == "failure" {
			got = last.Failure
		}
		if want.typ == "NOT_STARTED" && got != nil && strings.Contains(got.Message, "not found") {
			want.msg = got.Message // the start's error, as the service said it
		}
		if s.Name != want.suite || last.Name != runCaseName || got == nil || got.Type != want.typ || got.Message != want.msg {
			t.Errorf("run %d: suite %q, last case %+v; want %s %s %q", i+1, s.Name, last, want.kind, want.typ, want.msg)
		}
	}
	if s := doc.Suites[5]; len(s.Cases) != 1 || hasProperty(s, "run_attempt", "1") || !hasProperty(s, "plan_short_id", "pln-gone_1") {
		t.Errorf("a plan not started: one test case, its plan, no attempt: %+v", s)
	}
	if s := doc.Suites[6]; len(s.Cases) != 1 || s.Cases[0].Name == runCaseName || s.Failures+s.Errors != 0 {
		t.Errorf("a passed run got a run-level element: %+v", s)
	}
	// A run that ran no test case fails, whatever the service called it.
	if s := doc.Suites[7]; len(s.Cases) != 1 || s.Cases[0].Failure == nil || s.Cases[0].Failure.Type != "NO_TEST_CASE" ||
		!strings.Contains(s.Cases[0].Failure.Message, "ran no test case") {
		t.Errorf("a run with no test case: %+v", s)
	}
}

// xmllint is the consumer CI servers' JUnit readers are modelled on: the
// report validates against Surefire's 3.0 schema. Locally the test skips,
// saying so, without libxml2's xmllint; in CI it never skips.
func xmllint(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("xmllint is missing in CI: install Debian's libxml2-utils (.ci/run does)")
		}
		t.Skip("skipped: xmllint is not installed (.ci/run installs it: Debian's libxml2-utils)")
	}
	return path
}

// Every suite of the JUnit report validates against Surefire's schema, for
// random verdicts with evidence, flaky and rerun failures, hostile text and
// run-level elements.
func TestJUnitConformsToSurefireSchema(t *testing.T) {
	lint := xmllint(t)
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	n := 0
	for i := 0; i < 30; i++ {
		recs := []verdict.Record{randomRecord(rng, "r1"), randomRecord(rng, "r2")}
		recs[0].Plan.Name = "Checkout <\"&'> \x1b[31m"
		v := verdict.Decide(recs, verdict.Options{FailOnSkipped: i%2 == 0, FailOnFlaky: i%3 == 0})
		ev := Evidence{}
		for _, r := range v.Runs {
			for _, c := range r.Cases {
				code := int32(502)
				ev[c.ShortID] = evidence.Case{Target: evidence.TargetOf(c.RunShortID, "p", c.RunTestCase),
					Network: evidence.Part[api.NetworkEntry]{Entries: []api.NetworkEntry{{URL: "https://x/api?a=<b>&c", Method: "POST", StatusCode: code, IsError: true}}},
					Console: evidence.Part[api.ConsoleEntry]{Unavailable: "HTTP 500"}}
			}
		}
		var b bytes.Buffer
		if err := WriteJUnit(&b, v, ev); err != nil {
			t.Fatal(err)
		}
		// Each suite alone, as the schema's root is one testsuite.
		var full JUnitSuites
		_ = xml.Unmarshal(b.Bytes(), &full)
		for _, s := range full.Suites {
			one, err := xml.MarshalIndent(s, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			one = bytes.Replace(one, []byte("<JUnitSuite"), []byte("<testsuite"), 1)
			one = bytes.Replace(one, []byte("</JUnitSuite>"), []byte("</testsuite>"), 1)
			path := filepath.Join(dir, "suite.xml")
			if err := os.WriteFile(path, append([]byte(xml.Header), one...), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(lint, "--noout", "--schema", "testdata/surefire-test-report-3.0.xsd", path).CombinedOutput()
			if err != nil {
				t.Fatalf("suite %d of case %d does not validate: %v\n%s\n%s", n, i, err, out, one)
			}
			n++
		}
	}
	t.Logf("%d suites validated against Surefire's 3.0 schema", n)
}

// A rerun that never answered, after a first attempt whose run ended with
// a test case still running: that test case is reported from the attempt
// it last ran in, with that run's status, and every report is written.
func TestUnfinishedCaseOfAnEarlierAttempt(t *testing.T) {
	first := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed),
		RunTestCases: []api.RunTestCase{tc("r1-1", "checkout", api.ResultFailed, "declined"), {ShortID: "r1-2", Name: "search", Status: api.StatusRunning}}}
	recs := []verdict.Record{{ShortID: "r2", Stop: verdict.TimedOut, RetryLimit: 1, Earlier: []verdict.Attempt{{ShortID: "r1", Detail: first}}}}
	v := verdict.Decide(recs, verdict.Options{})
	var b bytes.Buffer
	if err := WriteJUnit(&b, v, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "still RUNNING when the run ended COMPLETED") {
		t.Errorf("the unfinished test case is not reported from its run:\n%s", b.String())
	}
	// Every other report takes the same verdict.
	dir := t.TempDir()
	ios, _, _, stderr := iostreams.Test()
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": dir + "/summary.md", "GITHUB_OUTPUT": dir + "/output"}
	err := writeAll(Input{IO: ios, Getenv: func(k string) string { return env[k] }, JUnitFile: dir + "/junit.xml", HTMLFile: dir + "/report.html",
		Now: time.Now}, Outcome{Verdict: v})
	if exitcode.Of(err) != exitcode.Timeout {
		t.Errorf("exit %d (%v), want %d: the rerun was still going\n%s", exitcode.Of(err), err, exitcode.Timeout, stderr)
	}
}

// The properties that name a failed test case carry its name sanitised, as
// its <testcase> does: no escape sequence, control or bidi override.
func TestJUnitPropertyNamesAreSanitised(t *testing.T) {
	const name = "Pay\u202egnp.exe\x1b]0;pwned\x07 x"
	d := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultFailed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-1", Name: name, Status: api.StatusCompleted, Result: api.ResultFailed}}}
	var b bytes.Buffer
	if err := WriteJUnit(&b, decide([]verdict.Record{{ShortID: "r1", URL: "https://x/r1", Detail: d}}), nil); err != nil {
		t.Fatal(err)
	}
	var doc JUnitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := "run_test_case_id:Paygnp.exe x"
	var names []string
	for _, p := range doc.Suites[0].Properties {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, want) || strings.ContainsAny(b.String(), "\u202e\ufffd") || strings.Contains(b.String(), "pwned") {
		t.Errorf("property names %q, want %q among them\n%s", names, want, b.String())
	}
}

// A test case's time comes from the service's timestamps when it sends
// them (they are not in the published run detail); without, or when they
// contradict each other, it is 0 rather than a time made up from polls.
func TestJUnitCaseTimeFromTheServicesTimestamps(t *testing.T) {
	at := func(s string) *string { return &s }
	detail := &api.RunDetail{ShortID: "r1", Status: api.StatusCompleted, Result: strp(api.ResultPassed), RunTestCases: []api.RunTestCase{
		{ShortID: "r1-0", Name: "Timed", Status: api.StatusCompleted, Result: api.ResultPassed,
			StartedAt: at("2026-11-21T09:00:01Z"), FinishedAt: at("2026-11-21T09:00:43.250Z")},
		{ShortID: "r1-1", Name: "Untimed", Status: api.StatusCompleted, Result: api.ResultPassed},
		{ShortID: "r1-2", Name: "Backwards", Status: api.StatusCompleted, Result: api.ResultPassed,
			StartedAt: at("2026-11-21T09:00:43Z"), FinishedAt: at("2026-11-21T09:00:01Z")},
	}}
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnitFile(path, verdict.Decide([]verdict.Record{{ShortID: "r1", Detail: detail}}, verdict.Options{}), nil); err != nil {
		t.Fatal(err)
	}
	doc, _ := readJUnit(t, path)
	want := map[string]string{"Timed": "42.250", "Untimed": "0", "Backwards": "0"}
	for _, c := range doc.Suites[0].Cases {
		if c.Time != want[c.Name] {
			t.Errorf("%s: time %q, want %q", c.Name, c.Time, want[c.Name])
		}
	}
}
