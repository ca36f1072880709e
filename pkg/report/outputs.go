package report

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/testctl/testctl/pkg/stepoutputs"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteOutputs writes GitHub Actions step outputs: runs_json, a JSON array
// of the runs for fromJSON(), and, when there is one run, run_short_id,
// run_url, run_status and run_result (with several, a single value would
// name one run and hide the others, so only runs_json is written). An
// output with nothing to say is not written (a later step would read an
// empty value as a real one), nor is a field of runs_json. The heredoc form
// is used for every value, since only it can carry a newline. With a
// baseline or a quarantine file, new_failures and known_failures count the
// failures of each class over every run (quarantined ones are neither), and
// each run of runs_json carries its failures' classes and its baseline run.
func WriteOutputs(w io.Writer, v verdict.Verdict) error {
	if err := writeRunOutputs(w, v.Runs, true); err != nil || !v.Classified {
		return err
	}
	var b strings.Builder
	for _, kv := range [][2]string{{"new_failures", strconv.Itoa(v.Failures.New)}, {"known_failures", strconv.Itoa(v.Failures.Known)}} {
		b.WriteString(stepoutputs.GitHubOutput(kv[0], kv[1]))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// AppendStartOutputs appends to the $GITHUB_OUTPUT file at path
// run_short_id and run_url (one run) and runs_json for runs just started
// by a command that does not wait for them: a later step waits ("start
// now, wait later").
func AppendStartOutputs(path string, recs []verdict.Record) error {
	runs := make([]verdict.Run, 0, len(recs))
	for _, r := range recs {
		runs = append(runs, verdict.Run{Record: r})
	}
	return appendTo(path, func(w io.Writer) error { return writeRunOutputs(w, runs, false) })
}

// writeRunOutputs writes the outputs of runs as WriteOutputs describes;
// decided says the runs have a verdict, whose exit codes runs_json gives.
// A run just started has no status or result yet: those outputs are empty,
// so left out.
func writeRunOutputs(w io.Writer, runs []verdict.Run, decided bool) error {
	// attemptOut is one run of a --retry-failed sequence in runs_json.
	type attemptOut struct {
		ShortID string `json:"shortId"`
		URL     string `json:"url,omitempty"`
		Status  string `json:"status,omitempty"`
		Result  string `json:"result,omitempty"`
	}
	type runOut struct {
		ShortID  string `json:"shortId"`
		URL      string `json:"url,omitempty"`
		Plan     string `json:"plan,omitempty"`
		Status   string `json:"status,omitempty"`
		Result   string `json:"result,omitempty"`
		ExitCode *int   `json:"exitCode,omitempty"` // nil before a verdict
		// CIRetry is what a retried CI job did with its earlier
		// attempt's run (reused, rerun-failed, waited, new).
		CIRetry string `json:"ciRetry,omitempty"`
		// Attempts are every run of a --retry-failed sequence, the
		// last being the run above.
		Attempts []attemptOut `json:"attempts,omitempty"`
		// Failures are its test cases that did not pass by class
		// (--baseline, --quarantine); Baseline the run they were
		// compared with.
		Failures map[string]string `json:"failures,omitempty"`
		Baseline string            `json:"baselineRunShortId,omitempty"`
	}
	all := []runOut{}
	for _, r := range runs {
		if r.NotStarted {
			continue // no run: the exit code and the other reports say so
		}
		o := runOut{ShortID: r.ShortID, URL: r.URL, Plan: r.Plan.Title()}
		if decided {
			o.ExitCode = new(r.Code)
		}
		if r.Detail != nil {
			o.Status, o.Result = r.Detail.Status, r.Result
		}
		if r.CIRetry != nil {
			o.CIRetry = r.CIRetry.Action
		}
		if r.Baseline.Found() {
			o.Baseline = r.Baseline.RunShortID
		}
		for _, c := range r.Cases {
			if c.Failure != "" && decided && (r.Baseline != nil || c.Quarantine != nil) {
				if o.Failures == nil {
					o.Failures = map[string]string{}
				}
				o.Failures[c.Name] = FailureWord(c)
			}
		}
		if len(r.Earlier) > 0 {
			for _, a := range r.Attempts() {
				ao := attemptOut{ShortID: a.ShortID, URL: a.URL}
				if a.Detail != nil {
					ao.Status, ao.Result = a.Detail.Status, a.Detail.ResultOrEmpty()
				}
				o.Attempts = append(o.Attempts, ao)
			}
		}
		all = append(all, o)
	}
	js, _ := json.Marshal(all) // plain strings and ints cannot fail
	var outs [][2]string
	if len(all) == 1 {
		o := all[0]
		outs = [][2]string{{"run_short_id", oneLine(o.ShortID)}, {"run_url", oneLine(o.URL)},
			{"run_status", oneLine(o.Status)}, {"run_result", oneLine(o.Result)}}
	}
	var b strings.Builder
	for _, kv := range append(outs, [2]string{"runs_json", string(js)}) {
		if kv[1] == "" {
			continue
		}
		b.WriteString(stepoutputs.GitHubOutput(kv[0], kv[1]))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLine keeps a value on its line of a multi-run output.
func oneLine(s string) string { return termtext.SanitizeLine(s) }
