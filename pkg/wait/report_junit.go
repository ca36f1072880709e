package wait

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/termtext"
)

// WriteJUnitFile writes a JUnit XML report of recs to path, atomically, so
// a CI step that publishes it never reads half a file.
func WriteJUnitFile(path string, recs []Record) error {
	var b bytes.Buffer
	if err := WriteJUnit(&b, recs); err != nil {
		return err
	}
	return writeFileAtomic(path, b.Bytes())
}

// WriteJUnit writes a JUnit XML report of recs: one testsuite per run, one
// testcase per run test case; test cases of an unfinished run are skipped.
func WriteJUnit(w io.Writer, recs []Record) error {
	data, err := xml.MarshalIndent(buildJUnit(recs), "", "  ")
	if err != nil {
		return fmt.Errorf("encoding JUnit XML: %w", err)
	}
	data = append([]byte(xml.Header), data...)
	_, err = w.Write(append(data, '\n'))
	return err
}

func buildJUnit(recs []Record) junitSuites {
	doc := junitSuites{Name: "testctl"}
	for _, r := range recs {
		s := buildSuite(r)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
	return doc
}

// suiteName names a run's suite and class after its plan: CI test views
// (GitLab, Jenkins, Buildkite) match test cases across builds by suite,
// class and name, and a run's short id changes every build.
func suiteName(r Record) string {
	if t := xmlText(r.Plan.Title()); t != "" {
		return t
	}
	return "testctl"
}

func buildSuite(r Record) junitSuite {
	s := junitSuite{Name: suiteName(r)}
	if !r.StartedAt.IsZero() {
		s.Timestamp = r.StartedAt.UTC().Format(time.RFC3339)
		if !r.FinishedAt.IsZero() && !r.FinishedAt.Before(r.StartedAt) {
			s.Time = seconds(r.FinishedAt.Sub(r.StartedAt))
		}
	}
	prop := func(name, value string) {
		if value != "" {
			s.Properties = append(s.Properties, junitProperty{Name: name, Value: xmlText(value)})
		}
	}
	prop("run_short_id", r.ShortID)
	prop("run_url", r.URL)
	if !r.NotStarted {
		prop("run_attempt", strconv.Itoa(max(r.Attempt, 1)))
	}
	prop("plan_short_id", r.Plan.ShortID)
	if r.Detail != nil {
		prop("run_status", r.Detail.Status)
		prop("run_result", r.Detail.ResultOrEmpty())
		flaky := map[string]FlakyCase{}
		for _, fc := range r.Flaky() {
			flaky[fc.Case.Name] = fc
		}
		for _, tc := range r.Cases() {
			c := buildCase(r, s.Name, tc)
			if fc, ok := flaky[tc.Name]; ok {
				c.FlakyFailures = []junitOutcome{flakyFailure(fc)}
			}
			s.Cases = append(s.Cases, c)
		}
	}
	if len(r.Earlier) > 0 {
		for i, a := range r.attempts() {
			prop(fmt.Sprintf("attempt_%d_short_id", i+1), a.ShortID)
			prop(fmt.Sprintf("attempt_%d_url", i+1), a.URL)
		}
	}
	if runProblem := runOutcome(r, s.Cases); runProblem != nil {
		// Without it a run whose code is not 0 could look green to a JUnit
		// reader: one that timed out, errored before any test case failed,
		// FAILED with no test case, or was never read.
		s.Cases = append(s.Cases, runProblem.testCase(s.Name))
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

func buildCase(r Record, class string, tc api.RunTestCase) junitCase {
	c := junitCase{Name: xmlText(tc.Name), Classname: class}
	if c.Name == "" {
		c.Name = xmlText(tc.ShortID)
	}
	if tc.ShortID != "" {
		c.SystemOut = xmlText(fmt.Sprintf("run %s, run test case %s; telemetry: testctl logs %s --kind console", r.ShortID, tc.ShortID, tc.ShortID))
	}
	title, thought := xmlText(tc.ResultTitle), xmlText(tc.EvaluationThought)
	switch {
	case !api.IsTerminalStatus(tc.Status) && r.Finished():
		c.Error = &junitOutcome{Type: xmlText(tc.Status), Message: fmt.Sprintf("still %s when the run ended %s", xmlText(tc.Status), xmlText(r.Detail.Status))}
	case !api.IsTerminalStatus(tc.Status):
		why := r.Pending
		if why == "" {
			why = "the wait ended"
		}
		c.Skipped = &junitOutcome{Message: fmt.Sprintf("still %s when %s", xmlText(tc.Status), why)}
	case tc.Status == api.StatusError || tc.Status == api.StatusCancelled:
		c.Error = &junitOutcome{Type: tc.Status, Message: orDefault(title, "test case ended "+tc.Status), Text: thought}
	case tc.Result == api.ResultPassed:
	case tc.Result == api.ResultSkipped:
		c.Skipped = &junitOutcome{Message: orDefault(title, "skipped"), Text: thought}
	default:
		c.Failure = &junitOutcome{Type: orDefault(xmlText(tc.Result), "FAILED"), Message: orDefault(title, "failed"), Text: thought}
	}
	return c
}

// flakyFailure is how Surefire reports a test that failed and then passed
// on a rerun, which Jenkins, GitLab and Buildkite read: the test case
// passes and carries its first failure.
func flakyFailure(fc FlakyCase) junitOutcome {
	first := fc.FirstFailure
	return junitOutcome{Type: orDefault(xmlText(caseOutcome(first)), "FAILED"),
		Message: orDefault(xmlText(first.ResultTitle), "failed"), Text: xmlText(first.EvaluationThought)}
}

// runLevel is the run's own verdict as a JUnit element.
type runLevel struct {
	failure bool // a <failure> (the tests failed) rather than an <error>
	outcome junitOutcome
}

// runCaseName names the test case that carries a run's own verdict; it is
// the same every build, like the plan's.
const runCaseName = "(run verdict)"

func (l *runLevel) testCase(class string) junitCase {
	c := junitCase{Name: runCaseName, Classname: class}
	if l.failure {
		c.Failure = &l.outcome
	} else {
		c.Error = &l.outcome
	}
	return c
}

// runOutcome is the element a run adds for itself when its code is not 0
// and none of its test cases already says why.
func runOutcome(r Record, cases []junitCase) *runLevel {
	if r.Code == 0 {
		return nil
	}
	errorf := func(typ, msg string) *runLevel { return &runLevel{outcome: junitOutcome{Type: typ, Message: msg}} }
	switch {
	case r.NotStarted:
		return errorf("NOT_STARTED", xmlText(firstLine(r.Err.Error())))
	case r.Err != nil:
		return errorf("NO_VERDICT", xmlText(firstLine(r.Err.Error())))
	case r.Pending != "" && r.Detail == nil:
		return errorf(pendingType(r), "no answer before "+r.Pending)
	case r.Pending != "":
		return errorf(pendingType(r), fmt.Sprintf("still %s when %s", xmlText(r.Detail.Status), r.Pending))
	case r.Detail == nil:
		return errorf("NO_VERDICT", "the run was never read")
	}
	explained := false
	for _, c := range cases {
		explained = explained || c.Failure != nil || c.Error != nil
	}
	if explained {
		return nil
	}
	status := xmlText(statusText(r.Detail))
	if r.Detail.Status != api.StatusCompleted {
		return errorf(xmlText(r.Detail.Status), "the run ended "+status)
	}
	msg := "the run ended " + status + " with no failed test case"
	if len(r.Detail.RunTestCases) == 0 {
		msg = "the run ended " + status + " with no test cases"
	}
	typ := orDefault(xmlText(r.Detail.ResultOrEmpty()), "FAILED")
	if n := len(r.Flaky()); n > 0 && r.Detail.ResultOrEmpty() == api.ResultPassed {
		// The run PASSED; what fails it is its flakiness.
		typ, msg = "FLAKY", fmt.Sprintf("the run ended %s: failing because of --fail-on-flaky (%d test cases passed only on a retry)", status, n)
	}
	if r.Detail.ResultOrEmpty() == api.ResultSkipped {
		msg = "the run ended " + status + ": failing because of --fail-on-skipped"
	}
	return &runLevel{failure: true, outcome: junitOutcome{Type: typ, Message: msg}}
}

// pendingType says how the wait ended before the run: TIMED_OUT,
// INTERRUPTED or TERMINATED.
func pendingType(r Record) string {
	switch r.Code {
	case cmdutil.ExitInterrupted:
		return "INTERRUPTED"
	case cmdutil.ExitTerminated:
		return "TERMINATED"
	}
	return "TIMED_OUT"
}

// seconds is a JUnit time attribute: seconds with millisecond precision.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

// xmlText strips escape sequences and control characters: XML 1.0 cannot
// carry most of them at all, and a report viewer should not get them.
func xmlText(s string) string { return termtext.Sanitize(s) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
