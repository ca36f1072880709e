package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteSummary writes the human summary of a wait (for stderr): the verdict of
// each run and, for every test case that did not pass, why. It goes to
// stderr whatever the output format, so a CI log shows the reasons even
// when stdout carries JSON for a program. With a width (a terminal's), the
// reasons are wrapped between words to fit it; with 0 (a log, which does
// not wrap) each stays on its lines.
func WriteSummary(w io.Writer, st *iostreams.Styles, width int, v verdict.Verdict, ev Evidence, res Resume) {
	n := 0                    // the test cases that did not pass are numbered across runs
	said := map[string]bool{} // a plan without a baseline run is said once
	for _, r := range v.Runs {
		fmt.Fprintln(w)
		id := termtext.SanitizeLine(r.ShortID)
		switch {
		case r.NotStarted:
			// The only place the error is printed: its hint (the plans
			// there are) on the lines below.
			first, hint, _ := strings.Cut(r.Err.Error(), "\n")
			fmt.Fprintf(w, "%s %s: %s: %s\n", st.FailureIcon(), r.Plan.What(), StartWord(r), termtext.Sanitize(first))
			for line := range strings.Lines(hint) {
				fmt.Fprintf(w, "  %s\n", termtext.SanitizeLine(strings.TrimRight(line, "\n")))
			}
			continue
		case r.Detail == nil && r.Stop != "":
			seen := "no answer"
			if r.NotFoundYet {
				seen = "not found yet"
			}
			fmt.Fprintf(w, "%s Run %s: %s when %s\n", st.WarningIcon(), id, seen, r.Stop.Why())
			continue
		case r.Detail == nil:
			fmt.Fprintf(w, "%s Run %s: no verdict (see the error above)\n", st.FailureIcon(), id)
			continue
		case r.Stop != "":
			fmt.Fprintf(w, "%s Run %s: still %s when %s — %s\n", st.WarningIcon(), id,
				ColorStatus(st, termtext.SanitizeLine(r.Detail.Status)), r.Stop.Why(), verdict.Live(r.Detail.RunTestCases))
		case r.Err != nil:
			fmt.Fprintf(w, "%s Run %s: last seen %s, no verdict (see the error above)\n", st.FailureIcon(), id,
				ColorStatus(st, termtext.SanitizeLine(r.Detail.Status)))
		default:
			icon := st.SuccessIcon()
			if !r.OK() {
				icon = st.FailureIcon()
			}
			// The run's colour is its verdict's, never its words': a run the
			// gate fails is never green.
			when := ""
			if r.AlreadyFinished || r.FinishedAfter > 0 {
				when = FinishedWhen(r.AlreadyFinished, r.FinishedAfter)
			}
			fmt.Fprintf(w, "%s Run %s: %s%s — %s%s\n", icon, id, RunStyle(st, r)(termtext.SanitizeLine(StatusText(r))),
				when, r.Counts, because(r))
		}
		if t := r.Plan.Title(); t != "" && !r.Plan.TestCases {
			fmt.Fprintf(w, "  plan %s\n", termtext.SanitizeLine(t))
		}
		if r.URL != "" {
			fmt.Fprintf(w, "  %s\n", termtext.SanitizeLine(r.URL))
		}
		if note := CIRetryText(r); note != "" {
			fmt.Fprintf(w, "  %s\n", note)
		}
		if note := baselineNote(r, v.BaselineBranch); note != "" && !said[note] {
			said[note] = true
			fmt.Fprintf(w, "  %s\n", termtext.SanitizeLine(note))
		}
		if v.Classified && r.Counts.Failed+r.Counts.Errored > 0 {
			fmt.Fprintf(w, "  failures: %s\n", r.Failures)
		}
		writeAttempts(w, st, width, r, ev)
		// New failures first, then known, then quarantined: what the
		// change under test broke leads.
		for _, c := range r.ByFailure() {
			n++
			writeFailure(w, st, width, n, r, c, ev, v.Classified, res)
		}
		for _, c := range r.Cases {
			if c.Class != verdict.Skipped && c.Class != verdict.NotRun {
				continue
			}
			fmt.Fprintf(w, "  %s %s [%s] %s\n", st.Warning("-"), termtext.SanitizeLine(c.Name),
				termtext.SanitizeLine(c.ShortID), ColorStatus(st, termtext.SanitizeLine(verdict.CaseWord(c.RunTestCase))))
			writeReasons(w, width, c)
		}
	}
}

// writeFailure is one test case that did not pass: what it is, why the
// evaluation says it failed, the evidence, and the commands that show more.
func writeFailure(w io.Writer, st *iostreams.Styles, width, n int, r verdict.Run, c verdict.Case, ev Evidence, classified bool, res Resume) {
	icon, class := st.FailureIcon(), ""
	if !c.FailsGate {
		icon = st.WarningIcon()
	}
	if classified {
		class = " · " + FailureWord(c)
	}
	fmt.Fprintf(w, "\n  %d. %s %s %s [%s]%s\n", n, icon, termtext.SanitizeLine(c.Name),
		ColorStatus(st, termtext.SanitizeLine(verdict.CaseWord(c.RunTestCase))), termtext.SanitizeLine(c.ShortID), class)
	if note := quarantineNote(c); note != "" {
		fmt.Fprintf(w, "%s%s\n", reasonIndent, termtext.SanitizeLine(note))
	}
	where := "run " + termtext.SanitizeLine(c.RunShortID)
	if t := r.Plan.Title(); t != "" && !r.Plan.TestCases {
		where = "plan " + termtext.SanitizeLine(t) + " · " + where
	}
	fmt.Fprintf(w, "%s%s\n", reasonIndent, st.Muted(where))
	writeReasons(w, width, c)
	e, gathered := ev.get(c.ShortID)
	if gathered {
		writeEvidenceLines(w, width, e)
	} else {
		e = evidence.Case{Target: evidence.TargetOf(c.RunShortID, r.Plan.Title(), c.RunTestCase)}
	}
	writeCommands(w, st, width, nextstep.Steps(nextstep.Or(res.Steps), evidence.Steps(e)))
}

// writeCommands writes the commands that show more of a test case, each
// whole on its line, to copy: beside a "more:" label where every one fits
// the width (or there is none: a log), else under the label, alone on
// their lines, indented where every one fits, so that a narrow terminal
// wraps a command, never a label and a command, and a triple-click copies
// it.
func writeCommands(w io.Writer, st *iostreams.Styles, width int, cmds []string) {
	const label = "more: "
	widest := 0
	for _, cmd := range cmds {
		widest = max(widest, ansi.StringWidth(cmd))
	}
	// At the last column, terminals wrap on the next character.
	if width <= 0 || len(reasonIndent+label)+widest < width {
		for i, cmd := range cmds {
			shown := label
			if i > 0 {
				shown = strings.Repeat(" ", len(label))
			}
			fmt.Fprintf(w, "%s%s%s\n", reasonIndent, st.Muted(shown), cmd)
		}
		return
	}
	if len(cmds) == 0 {
		return
	}
	fmt.Fprintf(w, "%s%s\n", reasonIndent, st.Muted(strings.TrimSpace(label)))
	indent := reasonIndent
	if len(reasonIndent)+widest >= width {
		indent = ""
	}
	for _, cmd := range cmds {
		fmt.Fprintf(w, "%s%s\n", indent, cmd)
	}
}

// WriteNextSteps says what to do after a wait: rerun the failed test cases
// of a run that failed. (After a timeout or an interruption the resume
// hint says how to go on waiting.)
func WriteNextSteps(w io.Writer, v verdict.Verdict, res Resume) {
	if res.Sandbox {
		return // the runs ended with the embedded sandbox
	}
	var steps []nextstep.Step
	for _, r := range v.Runs {
		if r.Class == verdict.RunFailed && r.ShortID != "" {
			steps = append(steps, nextstep.Step{Service: res.Args, Args: []string{"run", "rerun", r.ShortID, "--failed-only", "--wait"}})
		}
	}
	lines := nextstep.Steps(nextstep.Or(res.Steps), steps)
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "\nNext: rerun what failed with")
	for _, line := range lines {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

// because says what failed a run that passed on its own: a flag, or that
// it ran no test case.
func because(r verdict.Run) string {
	if r.Because == "" {
		return ""
	}
	return " (" + becauseText(r) + ")"
}

// writeAttempts lists every run of a --retry-failed sequence, and the test
// cases that passed only on a retry, in a section of their own: a retry
// must not hide that a test is flaky.
func writeAttempts(w io.Writer, st *iostreams.Styles, width int, r verdict.Run, ev Evidence) {
	if len(r.Earlier) == 0 {
		return
	}
	for i, a := range r.Attempts() {
		fmt.Fprintf(w, "  attempt %d: run %s %s\n", i+1, termtext.SanitizeLine(a.ShortID), termtext.SanitizeLine(a.URL))
	}
	flaky := r.Flaky()
	if len(flaky) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s Flaky: %s passed only on a retry\n", st.WarningIcon(), termtext.Plural(len(flaky), "test case"))
	for _, c := range flaky {
		fmt.Fprintf(w, "    %s [%s] %s\n", termtext.SanitizeLine(c.Name),
			termtext.SanitizeLine(c.ShortID), retryWords(r, c))
		if title := strings.TrimSpace(termtext.Sanitize(c.FirstFailure.ResultTitle)); title != "" {
			writeIndented(w, reasonIndent, "first failure: "+title, width)
		}
		if e, ok := ev.get(c.FirstFailure.ShortID); ok {
			writeEvidenceLines(w, width, e)
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

// writeReasons writes a test case's title and evaluation under its name.
func writeReasons(w io.Writer, width int, c verdict.Case) {
	for _, text := range []string{c.ResultTitle, c.EvaluationThought} {
		if text = strings.TrimSpace(termtext.Sanitize(text)); text != "" {
			writeIndented(w, reasonIndent, text, width)
		}
	}
}

// writeEvidenceLines writes the lines of gathered evidence, each cut to a
// terminal's width (a request's in its URL, so its status stays); a log,
// which does not wrap, keeps them whole.
func writeEvidenceLines(w io.Writer, width int, e evidence.Case) {
	room := 0
	if width > 0 {
		room = max(width-len(reasonIndent), 1)
	}
	for _, line := range evidence.Fit(e, room) {
		fmt.Fprintf(w, "%s%s\n", reasonIndent, line)
	}
}
