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

// WriteOutputs writes GitHub Actions step outputs: it sets run_short_id, run_url, run_status and run_result. With
// several runs each holds one line per run, in the order the runs were
// given, so line i of every output describes the same run; runs_json holds
// the same as a JSON array for fromJSON(). The heredoc form is used for
// every value, since only it can carry a newline.
func WriteOutputs(w io.Writer, recs []Record) error {
	type runOut struct {
		ShortID  string `json:"shortId"`
		URL      string `json:"url"`
		Status   string `json:"status"`
		Result   string `json:"result"`
		ExitCode int    `json:"exitCode"`
	}
	var ids, urls, statuses, results []string
	all := []runOut{}
	for _, r := range recs {
		o := runOut{ShortID: r.ShortID, URL: r.URL, ExitCode: r.Code}
		if r.Detail != nil {
			o.Status, o.Result = r.Detail.Status, r.Detail.ResultOrEmpty()
		}
		all = append(all, o)
		ids, urls = append(ids, oneLine(o.ShortID)), append(urls, oneLine(o.URL))
		statuses, results = append(statuses, oneLine(o.Status)), append(results, oneLine(o.Result))
	}
	js, _ := json.Marshal(all) // plain strings and ints cannot fail
	var b strings.Builder
	for _, kv := range [][2]string{
		{"run_short_id", strings.Join(ids, "\n")}, {"run_url", strings.Join(urls, "\n")},
		{"run_status", strings.Join(statuses, "\n")}, {"run_result", strings.Join(results, "\n")},
		{"runs_json", string(js)},
	} {
		delim := heredocDelimiter(kv[1])
		fmt.Fprintf(&b, "%s<<%s\n%s\n%s\n", kv[0], delim, kv[1], delim)
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
