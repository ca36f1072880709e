package wait

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/termtext"
)

// WriteOutputs writes GitHub Actions step outputs: runs_json, a JSON array
// of the runs for fromJSON(), and, when there is one run, run_short_id,
// run_url, run_status and run_result (with several, a single value would
// name one run and hide the others, so only runs_json is written). An
// output with nothing to say is not written (a later step would read an
// empty value as a real one), nor is a field of runs_json. The heredoc form
// is used for every value, since only it can carry a newline.
func WriteOutputs(w io.Writer, recs []Record) error {
	type runOut struct {
		ShortID  string `json:"shortId"`
		URL      string `json:"url,omitempty"`
		Status   string `json:"status,omitempty"`
		Result   string `json:"result,omitempty"`
		ExitCode *int   `json:"exitCode,omitempty"`
		// Attempts are every run of a --retry-failed sequence, the
		// last being the run above.
		Attempts []attemptOut `json:"attempts,omitempty"`
	}
	var ids, urls, statuses, results []string
	all := []runOut{}
	for _, r := range recs {
		if r.NotStarted {
			continue // no run: the exit code and the other reports say so
		}
		o := runOut{ShortID: r.ShortID, URL: r.URL}
		if r.Detail != nil {
			o.Status, o.Result = r.Detail.Status, r.Detail.ResultOrEmpty()
		}
		if r.hasVerdict() {
			o.ExitCode = &r.Code
		}
		o.Attempts = attemptsOut(r)
		all = append(all, o)
		ids, urls = append(ids, oneLine(o.ShortID)), append(urls, oneLine(o.URL))
		statuses, results = append(statuses, oneLine(o.Status)), append(results, oneLine(o.Result))
	}
	js, _ := json.Marshal(all) // plain strings and ints cannot fail
	var b strings.Builder
	for _, kv := range []struct {
		name  string
		lines []string
	}{
		{"run_short_id", ids}, {"run_url", urls}, {"run_status", statuses}, {"run_result", results},
		{"runs_json", []string{string(js)}},
	} {
		if len(kv.lines) > 1 || strings.Join(kv.lines, "") == "" {
			continue
		}
		value := strings.Join(kv.lines, "\n")
		delim := heredocDelimiter(value)
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", kv.name, delim, value, delim)
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

// attemptOut is one run of a --retry-failed sequence in runs_json.
type attemptOut struct {
	ShortID string `json:"shortId"`
	URL     string `json:"url,omitempty"`
	Status  string `json:"status,omitempty"`
	Result  string `json:"result,omitempty"`
}

func attemptsOut(r Record) []attemptOut {
	if len(r.Earlier) == 0 {
		return nil
	}
	var out []attemptOut
	for _, a := range r.attempts() {
		o := attemptOut{ShortID: a.ShortID, URL: a.URL}
		if a.Detail != nil {
			o.Status, o.Result = a.Detail.Status, a.Detail.ResultOrEmpty()
		}
		out = append(out, o)
	}
	return out
}
