package wait

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/termtext"
)

// WriteSummary writes the human summary of a wait (for stderr): the verdict of
// each run and, for every test case that did not pass, why. It goes to
// stderr whatever the output format, so a CI log shows the reasons even
// when stdout carries JSON for a program. With a width (a terminal's), the
// reasons are wrapped between words to fit it; with 0 (a log, which does
// not wrap) each stays on its lines.
func WriteSummary(w io.Writer, st *iostreams.Styles, width int, recs []Record) {
	for _, r := range recs {
		fmt.Fprintln(w)
		id := termtext.SanitizeLine(r.ShortID)
		switch {
		case r.NotStarted:
			fmt.Fprintf(w, "%s %s: not started: %s\n", st.FailureIcon(), startedWhat(r.Plan), termtext.Sanitize(firstLine(r.Err.Error())))
			continue
		case r.Detail == nil && r.Pending != "":
			seen := "no answer"
			if r.NotFoundYet {
				seen = "not found yet"
			}
			fmt.Fprintf(w, "%s Run %s: %s when %s\n", st.WarningIcon(), id, seen, r.Pending)
			continue
		case r.Detail == nil:
			fmt.Fprintf(w, "%s Run %s: no verdict (see the error above)\n", st.FailureIcon(), id)
			continue
		case r.Pending != "":
			fmt.Fprintf(w, "%s Run %s: still %s when %s — %s\n", st.WarningIcon(), id,
				st.Status(termtext.SanitizeLine(r.Detail.Status)), r.Pending, countCases(r.Detail.RunTestCases))
		case r.Err != nil:
			fmt.Fprintf(w, "%s Run %s: last seen %s, no verdict (see the error above)\n", st.FailureIcon(), id,
				st.Status(termtext.SanitizeLine(r.Detail.Status)))
		default:
			icon := st.SuccessIcon()
			if r.Code != 0 {
				icon = st.FailureIcon()
			}
			when := ""
			if r.AlreadyFinished || r.FinishedAfter > 0 {
				when = finishedWhen(r.AlreadyFinished, r.FinishedAfter)
			}
			fmt.Fprintf(w, "%s Run %s: %s%s — %s\n", icon, id, st.Status(termtext.SanitizeLine(statusText(r.Detail))),
				when, countCases(r.Cases()))
		}
		if r.URL != "" {
			fmt.Fprintf(w, "  %s\n", termtext.SanitizeLine(r.URL))
		}
		writeAttempts(w, st, width, r)
		lf := lineFormat{st: st}
		for _, tc := range r.Cases() {
			if !api.IsTerminalStatus(tc.Status) || caseOutcome(tc) == api.ResultPassed {
				continue
			}
			fmt.Fprintf(w, "  %s %s [%s] %s\n", lf.icon(tc), termtext.SanitizeLine(tc.Name),
				termtext.SanitizeLine(tc.ShortID), st.Status(termtext.SanitizeLine(caseOutcome(tc))))
			for _, text := range []string{tc.ResultTitle, tc.EvaluationThought} {
				if text = strings.TrimSpace(termtext.Sanitize(text)); text != "" {
					writeIndented(w, reasonIndent, text, width)
				}
			}
		}
	}
}

// writeAttempts lists every run of a --retry-failed sequence, and the test
// cases that passed only on a retry, in a section of their own: a retry
// must not hide that a test is flaky.
func writeAttempts(w io.Writer, st *iostreams.Styles, width int, r Record) {
	if len(r.Earlier) == 0 {
		return
	}
	for i, a := range r.attempts() {
		fmt.Fprintf(w, "  attempt %d: run %s %s\n", i+1, termtext.SanitizeLine(a.ShortID), termtext.SanitizeLine(a.URL))
	}
	flaky := r.Flaky()
	if len(flaky) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s Flaky: %s passed only on a retry\n", st.WarningIcon(), plural(len(flaky), "test case"))
	for _, fc := range flaky {
		fmt.Fprintf(w, "    %s [%s] passed on retry %d of %d\n", termtext.SanitizeLine(fc.Case.Name),
			termtext.SanitizeLine(fc.Case.ShortID), fc.Retry, fc.Retries)
		if title := strings.TrimSpace(termtext.Sanitize(fc.FirstFailure.ResultTitle)); title != "" {
			writeIndented(w, reasonIndent, "first failure: "+title, width)
		}
	}
}

// reasonIndent sets a case's title and evaluation under its name.
const reasonIndent = "      "

// writeIndented writes sanitised text under indent, wrapped between words
// to width when it is set. A terminal would cut a word anywhere ("no error
// was sho / wn") and lose the indent; a word longer than a line is still
// cut, since nothing better fits.
func writeIndented(w io.Writer, indent, text string, width int) {
	if room := width - len(indent); width > 0 && room >= minWrapWidth {
		text = ansi.Wrap(text, room, "")
	}
	fmt.Fprintf(w, "%s%s\n", indent, strings.ReplaceAll(text, "\n", "\n"+indent))
}

// minWrapWidth is the narrowest a wrapped reason may get; on a terminal
// narrower than that, letting it wrap the lines reads better.
const minWrapWidth = 20
