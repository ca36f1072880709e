package report

import "encoding/xml"

// The JUnit XML shape CI servers read (Jenkins, GitLab, GitHub reporters,
// Azure): one <testsuite> per run, one <testcase> per run test case, each
// suite as Surefire's 3.0 report schema has it (testdata/surefire-test-
// report-3.0.xsd): a time on every test case, the test case's children in
// the schema's order, and a <stackTrace> in every flaky or rerun failure.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

type JUnitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr,omitempty"`
	Properties []JUnitProperty `xml:"properties>property"`
	Cases      []JUnitCase     `xml:"testcase"`
}

type JUnitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type JUnitCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Time      string `xml:"time,attr"`
	// The order of the fields is the schema's order of the children.
	Failure       *JUnitOutcome `xml:"failure"`
	RerunFailures []JUnitRerun  `xml:"rerunFailure"`
	FlakyFailures []JUnitRerun  `xml:"flakyFailure"`
	Skipped       *JUnitSkipped `xml:"skipped"`
	Error         *JUnitOutcome `xml:"error"`
	SystemOut     string        `xml:"system-out,omitempty"`
}

type JUnitOutcome struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type JUnitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// JUnitRerun is an earlier failure of a test case that was run again
// (--retry-failed): a flakyFailure when it then passed, a rerunFailure
// when it failed again.
type JUnitRerun struct {
	Message    string `xml:"message,attr,omitempty"`
	Type       string `xml:"type,attr"`
	StackTrace string `xml:"stackTrace"`
	SystemOut  string `xml:"system-out,omitempty"`
}
