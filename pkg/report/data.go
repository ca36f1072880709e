package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteData writes the runs as data, for stdout: the detail(s) as JSON or
// YAML to w (one object for one run, an array for several), or a table of
// test cases to ios's stdout. The table is left out when stdout is the
// terminal the summary was written to and no format was asked for: it
// would follow the failure story and the test cases' lines, and repeat
// them.
func WriteData(w io.Writer, ios *iostreams.IOStreams, o output.Options, v verdict.Verdict) error {
	var runs []*api.RunDetail
	for _, r := range v.Runs {
		if r.Detail == nil {
			continue
		}
		d := r.Detail
		if v.Classified && o.IsStructured() {
			d = withClasses(r, v.BaselineBranch)
		}
		runs = append(runs, d)
	}
	several := len(v.Runs) > 1
	if o.IsStructured() {
		if err := writeDocument(w, o, runs, several); err != nil || o.Beside == nil {
			return err
		}
		ios = output.BesideStreams(o)
	} else if !o.Chosen && ios.SameTerminal() {
		return nil
	}
	cases := make([]RunCases, 0, len(runs))
	for _, d := range runs {
		cases = append(cases, RunCases{RunShortID: d.ShortID, Cases: d.RunTestCases})
	}
	return WriteCaseTable(ios, several, cases...)
}

// writeDocument writes the runs' JSON or YAML document to w.
func writeDocument(w io.Writer, o output.Options, runs []*api.RunDetail, several bool) error {
	switch {
	case len(runs) == 0:
		return nil
	case !several:
		return output.Print(w, o, runs[0])
	}
	doc, err := output.Array(runs) // each run's document as the service sent it
	if err != nil {
		return err
	}
	return output.Print(w, o, doc)
}

// classesKey is the one key testctl adds to a run's document under -o json
// or yaml, and only with --baseline or --quarantine: the service's own
// fields are printed as it sent them, and none is invented among them.
const classesKey = "testctl"

// runClasses is what classesKey holds: the baseline the failures were
// compared with and the class of each test case that did not pass.
type runClasses struct {
	BaselineBranch     string         `json:"baselineBranch,omitempty"`
	BaselineRunShortID string         `json:"baselineRunShortId,omitempty"`
	Failures           []caseFailure  `json:"failures"`
	Counts             map[string]int `json:"counts"`
}

type caseFailure struct {
	ShortID         string `json:"shortId"`
	Name            string `json:"name"`
	Class           string `json:"class"`
	FailsGate       bool   `json:"failsGate"`
	QuarantineUntil string `json:"quarantineUntil,omitempty"`
	// QuarantineExpired: the entry's date has passed; it fails the gate.
	QuarantineExpired bool `json:"quarantineExpired,omitempty"`
}

// withClasses is a copy of the run's detail whose document has
// classesKey added after the service's fields.
func withClasses(r verdict.Run, branch string) *api.RunDetail {
	rc := runClasses{BaselineBranch: branch, Failures: []caseFailure{}, Counts: map[string]int{
		"new": r.Failures.New, "known": r.Failures.Known, "quarantined": r.Failures.Quarantined}}
	if r.Baseline.Found() {
		rc.BaselineRunShortID = r.Baseline.RunShortID
	}
	for _, c := range r.ByFailure() {
		f := caseFailure{ShortID: c.ShortID, Name: c.Name, Class: string(c.Failure), FailsGate: c.FailsGate, QuarantineExpired: c.QuarantineExpired}
		if c.Quarantine != nil {
			f.QuarantineUntil = c.Quarantine.Until.Format("2006-01-02")
		}
		rc.Failures = append(rc.Failures, f)
	}
	doc := r.Detail.RawJSON()
	if doc == nil {
		doc, _ = json.Marshal(r.Detail) // a detail built by hand (tests)
	}
	extra, _ := json.Marshal(map[string]runClasses{classesKey: rc}) // strings, ints and bools cannot fail
	doc = bytes.TrimSpace(doc)
	if len(doc) < 2 || doc[len(doc)-1] != '}' {
		return r.Detail // not an object: printed as it came
	}
	body := bytes.TrimSpace(doc[1 : len(doc)-1])
	merged := append([]byte{'{'}, body...)
	if len(body) > 0 {
		merged = append(merged, ',')
	}
	merged = append(merged, extra[1:]...)
	d := *r.Detail
	d.SetRawJSON(merged)
	return &d
}
