package report

import "encoding/xml"

// The JUnit XML shape CI servers read (Jenkins, GitLab, GitHub reporters,
// Azure): one <testsuite> per run, one <testcase> per run test case, each
// suite as Surefire's 3.0 report schema has it (testdata/surefire-test-
// report-3.0.xsd): a time on every test case, the test case's children in
// the schema's order, and a <stackTrace> in every flaky or rerun failure.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Time      string `xml:"time,attr"`
	// The order of the fields is the schema's order of the children.
	Failure       *junitOutcome `xml:"failure"`
	RerunFailures []junitRerun  `xml:"rerunFailure"`
	FlakyFailures []junitRerun  `xml:"flakyFailure"`
	Skipped       *junitSkipped `xml:"skipped"`
	Error         *junitOutcome `xml:"error"`
	SystemOut     string        `xml:"system-out,omitempty"`
}

type junitOutcome struct {
	Message string `xml:"message,attr,omitempty"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// junitRerun is an earlier failure of a test case that was run again
// (--retry-failed): a flakyFailure when it then passed, a rerunFailure
// when it failed again.
type junitRerun struct {
	Message    string `xml:"message,attr,omitempty"`
	Type       string `xml:"type,attr"`
	StackTrace string `xml:"stackTrace"`
	SystemOut  string `xml:"system-out,omitempty"`
}
