package report

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteOutputs writes GitHub Actions step outputs: runs_json, a JSON array
// of the runs for fromJSON(), and, when there is one run, run_short_id,
// run_url, run_status and run_result (with several, a single value would
// name one run and hide the others, so only runs_json is written). An
// output with nothing to say is not written (a later step would read an
// empty value as a real one), nor is a field of runs_json. The heredoc form
// is used for every value, since only it can carry a newline.
func WriteOutputs(w io.Writer, v verdict.Verdict) error {
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
		ExitCode int    `json:"exitCode"`
		// Attempts are every run of a --retry-failed sequence, the
		// last being the run above.
		Attempts []attemptOut `json:"attempts,omitempty"`
	}
	var ids, urls, statuses, results []string
	all := []runOut{}
	for _, r := range v.Runs {
		if r.NotStarted {
			continue // no run: the exit code and the other reports say so
		}
		o := runOut{ShortID: r.ShortID, URL: r.URL, Plan: r.Plan.Title(), ExitCode: r.Code}
		if r.Detail != nil {
			o.Status, o.Result = r.Detail.Status, r.Result
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
		ids, urls = append(ids, oneLine(o.ShortID)), append(urls, oneLine(o.URL))
		statuses, results = append(statuses, oneLine(o.Status)), append(results, oneLine(o.Result))
	}
	js, _ := json.Marshal(all) // plain strings and ints cannot fail
	return writeOutputValues(w, []stepOutput{{"run_short_id", ids}, {"run_url", urls}, {"run_status", statuses},
		{"run_result", results}, {"runs_json", []string{string(js)}}})
}

// WriteStartOutputs writes run_short_id and run_url (one run) and
// runs_json for runs just started by a command that does not wait for
// them: a later step waits ("start now, wait later").
func WriteStartOutputs(w io.Writer, runs []verdict.Record) error {
	type runOut struct {
		ShortID string `json:"shortId"`
		URL     string `json:"url,omitempty"`
		Plan    string `json:"plan,omitempty"`
	}
	var ids, urls []string
	all := []runOut{}
	for _, r := range runs {
		all = append(all, runOut{ShortID: r.ShortID, URL: r.URL, Plan: r.Plan.Title()})
		ids, urls = append(ids, oneLine(r.ShortID)), append(urls, oneLine(r.URL))
	}
	js, _ := json.Marshal(all)
	return writeOutputValues(w, []stepOutput{{"run_short_id", ids}, {"run_url", urls}, {"runs_json", []string{string(js)}}})
}

type stepOutput struct {
	name  string
	lines []string
}

// writeOutputValues writes each output in the heredoc form; an output with
// several lines (one per run) is left out, since a single value would name
// one run and hide the others, and so is an empty one.
func writeOutputValues(w io.Writer, outs []stepOutput) error {
	var b strings.Builder
	for _, kv := range outs {
		if len(kv.lines) != 1 || kv.lines[0] == "" {
			continue
		}
		delim := heredocDelimiter(kv.lines[0])
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", kv.name, delim, kv.lines[0], delim)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLine keeps a value on its line of a multi-run output.
func oneLine(s string) string { return termtext.SanitizeLine(s) }

// heredocDelimiter is random so that no value, whatever the service sent,
// can end the heredoc early and set outputs of its own.
func heredocDelimiter(value string) string {
	for {
		var buf [12]byte
		_, _ = rand.Read(buf[:]) // crypto/rand.Read never fails
		d := "ghadelimiter_" + hex.EncodeToString(buf[:])
		if !strings.Contains(value, d) {
			return d
		}
	}
}
