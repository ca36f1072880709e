package wait

import (
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/termtext"
)

// WriteAnnotations prints one ::error per failed, errored or cancelled test
// case, so the failures show on the workflow run's page.
func WriteAnnotations(w io.Writer, recs []Record) {
	for _, r := range recs {
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
