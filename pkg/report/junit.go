package report

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteJUnitFile writes a JUnit XML report of v to path, atomically, so a
// CI step that publishes it never reads half a file.
func WriteJUnitFile(path string, v verdict.Verdict, ev Evidence) error {
	var b bytes.Buffer
	if err := WriteJUnit(&b, v, ev); err != nil {
		return err
	}
	return atomicfile.Write(path, b.Bytes(), 0o644) // read by the CI's other steps
}

// WriteJUnit writes a JUnit XML report of v: one testsuite per run, one
// testcase per test case, each from the attempt it last ran in.
func WriteJUnit(w io.Writer, v verdict.Verdict, ev Evidence) error {
	doc := JUnitSuites{Name: "testctl"}
	for _, r := range v.Runs {
		s := buildSuite(r, v.Classified, ev)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
	data, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding JUnit XML: %w", err)
	}
	data = append([]byte(xml.Header), data...)
	_, err = w.Write(append(data, '\n'))
	return err
}

func buildSuite(r verdict.Run, classified bool, ev Evidence) JUnitSuite {
	// A run's suite and class are named after its plan: CI test views
	// (GitLab, Jenkins, Buildkite) match test cases across builds by suite,
	// class and name, and a run's short id changes every build.
	s := JUnitSuite{Name: cmp.Or(xmlText(r.Plan.Title()), "testctl")}
	if !r.StartedAt.IsZero() && !r.FinishedAt.IsZero() && !r.FinishedAt.Before(r.StartedAt) {
		s.Time = seconds(r.FinishedAt.Sub(r.StartedAt))
	}
	prop := func(name, value string) {
		if value != "" {
			s.Properties = append(s.Properties, JUnitProperty{Name: name, Value: xmlText(value)})
		}
	}
	prop("run_short_id", r.ShortID)
	prop("run_url", r.URL)
	if !r.NotStarted {
		prop("run_attempt", strconv.Itoa(len(r.Earlier)+1))
	}
	prop("plan_short_id", r.Plan.ShortID)
	if ci := r.CIRetry; ci != nil {
		// What a retried CI job did with its earlier attempt's run.
		prop("ci_retry", ci.Action)
		prop("ci_retry_run_short_id", ci.Run)
		prop("ci_retry_note", CIRetryText(r))
	}
	if !r.StartedAt.IsZero() {
		prop("run_started_at", r.StartedAt.UTC().Format(time.RFC3339))
	}
	if r.Detail != nil {
		prop("run_status", r.Detail.Status)
		prop("run_result", r.Result)
	}
	if b := r.Baseline; b != nil {
		// The baseline the failures were classed against, so a reader of
		// the history can find it.
		prop("baseline_branch", b.Branch)
		prop("baseline_run_short_id", b.RunShortID)
		prop("baseline_run_url", b.RunURL)
	}
	if len(r.Earlier) > 0 {
		for i, a := range r.Attempts() {
			prop(fmt.Sprintf("attempt_%d_short_id", i+1), a.ShortID)
			prop(fmt.Sprintf("attempt_%d_url", i+1), a.URL)
		}
	}
	for _, c := range r.Cases {
		s.Cases = append(s.Cases, buildCase(r, s.Name, c, ev))
		if c.Class.DidNotPass() || c.Class == verdict.Flaky {
			prop("run_test_case_id:"+xmlText(c.Name), c.ShortID)
			prop("run_test_case_url:"+xmlText(c.Name), c.RunURL)
		}
		if c.Failure != "" && classified {
			// Every <failure> stays (CI history must stay true); its
			// class says whether it failed the gate.
			prop("failure_class:"+xmlText(c.Name), FailureWord(c))
		}
	}
	if c := runCase(r, s.Name); c != nil {
		// Without it a run whose code is not 0 could look green to a JUnit
		// reader: one that timed out, errored before any test case failed,
		// FAILED with no test case, or was never read.
		s.Cases = append(s.Cases, *c)
	}
	for _, c := range s.Cases {
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
	return s
}

func buildCase(r verdict.Run, class string, c verdict.Case, ev Evidence) JUnitCase {
	jc := JUnitCase{Name: cmp.Or(xmlText(c.Name), xmlText(c.ShortID)), Classname: class, Time: caseTime(c.RunTestCase)}
	title, thought := xmlText(c.ResultTitle), xmlText(c.EvaluationThought)
	switch c.Class {
	case verdict.Errored:
		msg := cmp.Or(title, "test case ended "+c.Status)
		if !verdict.Final(c.Status) {
			msg = fmt.Sprintf("still %s when the run ended %s", xmlText(c.Status), xmlText(endedAs(r, c.RunShortID)))
		}
		jc.Error = &JUnitOutcome{Type: cmp.Or(xmlText(c.Status), "ERROR"), Message: msg, Text: thought}
	case verdict.NotRun:
		jc.Skipped = &JUnitSkipped{Message: fmt.Sprintf("still %s when %s", xmlText(c.Status), cmp.Or(r.Stop.Why(), "the wait ended"))}
	case verdict.Skipped:
		jc.Skipped = &JUnitSkipped{Message: cmp.Or(title, "skipped"), Text: thought}
	case verdict.Failed:
		jc.Failure = &JUnitOutcome{Type: cmp.Or(xmlText(c.Result), "FAILED"), Message: cmp.Or(title, "failed"), Text: thought}
	}
	for _, f := range c.Failures {
		rerun := JUnitRerun{Type: cmp.Or(xmlText(verdict.CaseWord(f)), "FAILED"), Message: cmp.Or(xmlText(f.ResultTitle), "failed"),
			StackTrace: cmp.Or(xmlText(f.EvaluationThought), xmlText(f.ResultTitle), "failed")}
		if c.Class == verdict.Flaky {
			rerun.SystemOut = systemOut(r, f, ev)
			jc.FlakyFailures = append(jc.FlakyFailures, rerun)
		} else {
			jc.RerunFailures = append(jc.RerunFailures, rerun)
		}
	}
	if c.Class.DidNotPass() {
		jc.SystemOut = systemOut(r, c.RunTestCase, ev)
	}
	return jc
}

// systemOut is a failed run of a test case's one <system-out> block: where
// it ran, its evidence and the commands that show more.
func systemOut(r verdict.Run, tc api.RunTestCase, ev Evidence) string {
	if tc.ShortID == "" {
		return ""
	}
	if text := ev.text(tc.ShortID, evidence.Text); text != "" {
		return xmlText(text)
	}
	return xmlText(fmt.Sprintf("run test case %s of run %s\nmore: %s", tc.ShortID, r.ShortID, strings.Join(moreCommands(tc.ShortID), "\n      ")))
}

// runCaseName names the test case that carries a run's own verdict; it is
// the same every build, like the plan's.
const runCaseName = "(run verdict)"

// runCase is the test case a run adds for itself when its code is not 0
// and none of its test cases already says why: a <failure> when the tests
// failed it, an <error> otherwise.
func runCase(r verdict.Run, class string) *JUnitCase {
	if r.OK() {
		return nil
	}
	c := JUnitCase{Name: runCaseName, Classname: class, Time: "0"}
	errorf := func(typ, msg string) *JUnitCase {
		c.Error = &JUnitOutcome{Type: typ, Message: msg}
		return &c
	}
	failuref := func(typ, msg string) *JUnitCase {
		c.Failure = &JUnitOutcome{Type: typ, Message: msg}
		return &c
	}
	why := xmlText(whyFailed(r))
	switch {
	case why == "":
		return nil // the test cases say why
	case r.Class == verdict.RunNotStarted:
		return errorf("NOT_STARTED", why)
	case r.Class == verdict.RunNoVerdict:
		return errorf("NO_VERDICT", cmp.Or(why, "the run was never read"))
	case r.Class == verdict.RunStopped:
		return errorf(string(r.Stop), why)
	case r.RerunErr != nil && r.Code == exitcode.Service:
		return errorf("RERUN_NOT_STARTED", why)
	case r.Class == verdict.RunErrored:
		return errorf(xmlText(r.Detail.Status), why)
	case r.Because == "--fail-on-flaky":
		return failuref("FLAKY", why)
	case r.Because == "--fail-on-skipped":
		return failuref("SKIPPED", why)
	case r.Because == verdict.NoTestCase:
		return failuref("NO_TEST_CASE", why)
	}
	return failuref(cmp.Or(xmlText(r.Result), "FAILED"), why)
}

// caseTime is a test case's JUnit time: from the service's timestamps
// when it sends them, else 0 (the published run detail has none, and a
// time testctl made up from its polls would be off by an interval).
func caseTime(c api.RunTestCase) string {
	d, ok := caseDuration(c)
	if !ok {
		return "0"
	}
	return seconds(d)
}

// caseDuration is how long a test case ran by the service's timestamps;
// false when it sent none (or none that make sense). Every report's time
// of a test case is this one.
func caseDuration(c api.RunTestCase) (time.Duration, bool) {
	start, end := api.Time(c.StartedAt), api.Time(c.FinishedAt)
	if start.IsZero() || end.IsZero() || end.Before(start) {
		return 0, false
	}
	return end.Sub(start), true
}

// seconds is a JUnit time attribute: seconds with millisecond precision.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

// xmlText strips escape sequences and control characters: XML 1.0 cannot
// carry most of them at all, and a report viewer should not get them.
func xmlText(s string) string { return termtext.Sanitize(s) }

// endedAs is the status of the attempt run: the one a test case last ran
// in may be an earlier attempt's, and the last one may never have been
// read (a rerun the wait ended before it answered).
func endedAs(r verdict.Run, run string) string {
	for _, a := range r.Attempts() {
		if a.ShortID == run && a.Detail != nil {
			return a.Detail.Status
		}
	}
	return "without an answer"
}
