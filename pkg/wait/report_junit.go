package wait

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"

	"github.com/testctl/testctl/pkg/api"
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

func buildSuite(r Record) junitSuite {
	s := junitSuite{Name: "run " + xmlText(r.ShortID)}
	prop := func(name, value string) {
		if value != "" {
			s.Properties = append(s.Properties, junitProperty{Name: name, Value: xmlText(value)})
		}
	}
	prop("run_short_id", r.ShortID)
	prop("run_url", r.URL)
	if r.Detail != nil {
		prop("run_status", r.Detail.Status)
		prop("run_result", r.Detail.ResultOrEmpty())
		for _, tc := range r.Detail.RunTestCases {
			s.Cases = append(s.Cases, buildCase(r, tc))
		}
	}
	if runProblem := suiteProblem(r, s.Cases); runProblem != nil {
		// Without it a run that errored before any test case failed, or one
		// that was never found, would look green to a JUnit reader.
		s.Cases = append(s.Cases, junitCase{Name: "run " + xmlText(r.ShortID), Classname: xmlText(r.ShortID), Error: runProblem})
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

func buildCase(r Record, tc api.RunTestCase) junitCase {
	c := junitCase{Name: xmlText(tc.Name), Classname: xmlText(r.ShortID)}
	if c.Name == "" {
		c.Name = xmlText(tc.ShortID)
	}
	if tc.ShortID != "" {
		c.SystemOut = xmlText(fmt.Sprintf("run test case %s; telemetry: testctl logs %s --kind console", tc.ShortID, tc.ShortID))
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

// suiteProblem is the error a run itself adds, when its own outcome is bad
// and none of its test cases already says so.
func suiteProblem(r Record, cases []junitCase) *junitOutcome {
	if r.Detail == nil {
		msg := "the run was never read"
		if r.Err != nil {
			msg = xmlText(firstLine(r.Err.Error()))
		} else if r.Pending != "" {
			msg = "no answer before " + r.Pending
		}
		return &junitOutcome{Type: "NO_VERDICT", Message: msg}
	}
	if r.Err != nil {
		return &junitOutcome{Type: "NO_VERDICT", Message: xmlText(firstLine(r.Err.Error()))}
	}
	if r.Detail.Status != api.StatusError && r.Detail.Status != api.StatusCancelled {
		return nil
	}
	for _, c := range cases {
		if c.Error != nil || c.Failure != nil {
			return nil
		}
	}
	return &junitOutcome{Type: r.Detail.Status, Message: "the run ended " + r.Detail.Status}
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
