package api

import "encoding/json"

// The two list answers decode their items one by one (decodeItems), so that
// each item keeps its own bytes for a streamed --all document.

// UnmarshalJSON decodes a page of runs.
func (l *RunList) UnmarshalJSON(b []byte) error {
	var w struct {
		Runs   []json.RawMessage `json:"runs"`
		Total  int32             `json:"total"`
		Limit  int32             `json:"limit"`
		Offset int32             `json:"offset"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	runs, err := decodeItems[RunSummary](w.Runs)
	if err != nil {
		return err
	}
	*l = RunList{Raw: l.Raw, Runs: runs, Total: w.Total, Limit: w.Limit, Offset: w.Offset}
	return nil
}

// UnmarshalJSON decodes a page of test cases.
func (l *TestCaseList) UnmarshalJSON(b []byte) error {
	var w struct {
		TestCases []json.RawMessage `json:"testCases"`
		Total     int32             `json:"total"`
		Limit     int32             `json:"limit"`
		Offset    int32             `json:"offset"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	cases, err := decodeItems[TestCase](w.TestCases)
	if err != nil {
		return err
	}
	*l = TestCaseList{Raw: l.Raw, TestCases: cases, Total: w.Total, Limit: w.Limit, Offset: w.Offset}
	return nil
}
