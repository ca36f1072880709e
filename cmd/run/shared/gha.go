package shared

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/termtext"
)

// GitHub Actions integration: a Markdown summary appended to
// $GITHUB_STEP_SUMMARY, an ::error annotation per test case that did not
// pass, and step outputs in $GITHUB_OUTPUT.

func inGitHubActions(f *cmdutil.Factory) bool { return f.Getenv("GITHUB_ACTIONS") == "true" }

// writeGitHub writes what GitHub Actions reads and returns what could not
// be written: a missing summary must not fail a step whose runs passed.
func writeGitHub(f *cmdutil.Factory, reports []runReport) (warnings []string) {
	// Workflow commands are read from both output streams; stderr keeps
	// stdout for data.
	writeAnnotations(f.IOStreams.ErrOut, reports)
	if path := f.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendFile(path, []byte(stepSummary(reports))); err != nil {
			warnings = append(warnings, fmt.Sprintf("writing the step summary: %v", err))
		}
	}
	if path := f.Getenv("GITHUB_OUTPUT"); path != "" {
		if err := appendFile(path, []byte(stepOutputs(reports))); err != nil {
			warnings = append(warnings, fmt.Sprintf("writing the step outputs: %v", err))
		}
	}
	return warnings
}

// writeAnnotations prints one ::error per failed, errored or cancelled test
// case, so the failures show on the workflow run's page.
func writeAnnotations(w io.Writer, reports []runReport) {
	for _, r := range reports {
		if r.Detail == nil {
			continue
		}
		for _, tc := range r.Detail.RunTestCases {
			if !isTestCaseFailure(tc) {
				continue
			}
			title := fmt.Sprintf("testctl run %s: %s", r.ShortID, tc.Name)
			msg := caseOutcome(tc)
			if tc.ResultTitle != "" {
				msg += ": " + tc.ResultTitle
			}
			if tc.EvaluationThought != "" {
				msg += "\n\n" + tc.EvaluationThought
			}
			if r.URL != "" {
				msg += "\n" + r.URL
			}
			fmt.Fprintf(w, "::error title=%s::%s\n", escapeProperty(title), escapeData(msg))
		}
	}
}

// escapeData escapes a workflow command's message as the runner unescapes
// it; service text is sanitised first so no escape sequence reaches the log.
func escapeData(s string) string {
	s = termtext.Sanitize(s)
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty also escapes the separators of a command's properties.
func escapeProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(escapeData(s))
}

// stepOutputs sets run_short_id, run_url, run_status and run_result. With
// several runs each holds one line per run, in the order the runs were
// given, so line i of every output describes the same run; runs_json holds
// the same as a JSON array for fromJSON(). The heredoc form is used for
// every value, since only it can carry a newline.
func stepOutputs(reports []runReport) string {
	type runOut struct {
		ShortID  string `json:"shortId"`
		URL      string `json:"url"`
		Status   string `json:"status"`
		Result   string `json:"result"`
		ExitCode int    `json:"exitCode"`
	}
	var ids, urls, statuses, results []string
	all := []runOut{}
	for _, r := range reports {
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
	return b.String()
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

// runHeadline is the run's outcome in words for the summary.
func runHeadline(r runReport) string {
	switch {
	case r.Detail == nil:
		return "no verdict"
	case r.Pending != "":
		return "still " + r.Detail.Status + " when " + r.Pending
	case r.Err != nil:
		return "last seen " + r.Detail.Status + ", no verdict"
	}
	return statusText(r.Detail)
}
