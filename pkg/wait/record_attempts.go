package wait

import "github.com/testctl/testctl/pkg/api"

// Attempt is one run of a --retry-failed sequence: the original run, then
// each rerun of its failed test cases.
type Attempt struct {
	ShortID string
	URL     string
	Detail  *api.RunDetail // nil when it was never read
}

// FlakyCase is a test case that failed and then passed on a rerun.
type FlakyCase struct {
	Case         api.RunTestCase // the run in which it passed
	FirstFailure api.RunTestCase // its first failed run, whose reason the reports show
	Retry        int             // the retry it passed on, from 1
	Retries      int             // --retry-failed
}

// attempts are every run of the record, oldest first, the record's own last.
func (r Record) attempts() []Attempt {
	return append(append([]Attempt(nil), r.Earlier...), Attempt{ShortID: r.ShortID, URL: r.URL, Detail: r.Detail})
}

// Cases are the record's test cases: each one's latest run across the
// attempts. A rerun gives its test cases new run-test-case ids, so they are
// matched by name; those the reruns left alone (they passed) keep their
// first run.
func (r Record) Cases() []api.RunTestCase {
	if len(r.Earlier) == 0 {
		if r.Detail == nil {
			return nil
		}
		return r.Detail.RunTestCases
	}
	var out []api.RunTestCase
	at := map[string]int{}
	for _, a := range r.attempts() {
		if a.Detail == nil {
			continue
		}
		for _, tc := range a.Detail.RunTestCases {
			if i, ok := at[tc.Name]; ok {
				out[i] = tc
				continue
			}
			at[tc.Name] = len(out)
			out = append(out, tc)
		}
	}
	return out
}

// Flaky are the test cases that failed in an attempt and passed in a later
// one, in the order of Cases.
func (r Record) Flaky() []FlakyCase {
	if len(r.Earlier) == 0 {
		return nil
	}
	all := r.attempts()
	var out []FlakyCase
	for _, tc := range r.Cases() {
		if caseOutcome(tc) != api.ResultPassed {
			continue
		}
		var failed *api.RunTestCase
		for i, a := range all {
			run, ok := a.caseNamed(tc.Name)
			switch {
			case !ok:
			case failed == nil && isTestCaseFailure(run):
				failed = &run
			case failed != nil && caseOutcome(run) == api.ResultPassed:
				out = append(out, FlakyCase{Case: run, FirstFailure: *failed, Retry: i, Retries: r.RetryLimit})
				failed = nil
			}
		}
	}
	return out
}

// caseNamed is the attempt's run of the test case called name.
func (a Attempt) caseNamed(name string) (api.RunTestCase, bool) {
	if a.Detail != nil {
		for _, tc := range a.Detail.RunTestCases {
			if tc.Name == name {
				return tc, true
			}
		}
	}
	return api.RunTestCase{}, false
}
