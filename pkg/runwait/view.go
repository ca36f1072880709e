package runwait

import (
	"fmt"
	"io"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/poll"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// newViews are the reporters that show a wait in progress on stderr. The
// live view wherever stderr is a terminal that can redraw (not TERM=dumb),
// as the contract allows animation: NO_COLOR and --no-color remove colour,
// nothing else (--debug writes to stderr too, and the two would garble): a
// spinner line redrawn with the elapsed time and the counts, finished test
// cases scrolling above it. Elsewhere the line mode writes one line per change of state, never one
// per poll, so CI logs stay short, and the heartbeat a line after a period
// of silence. tickEvery is how often they need the time.
func newViews(ios *iostreams.IOStreams, debug bool, runs int, pulse *heartbeat) (views []report.Reporter, tickEvery time.Duration) {
	p := lineFormat{st: ios.ErrStyles(), prefixRuns: true, namePlans: runs > 1}
	if ios.IsStderrTTY() {
		p.width = ios.ErrTerminalWidth
	}
	if ios.CanRedrawStderr() && !debug {
		p.prefixRuns = runs > 1
		v := &liveView{ios: ios, lf: p}
		if runs > 1 {
			v.block = ios.NewBlock()
		}
		return []report.Reporter{v}, liveTick
	}
	pulse.w = ios.ErrOut
	return []report.Reporter{&lineView{w: ios.ErrOut, lf: p}, pulse}, pulse.every
}

// lineFormat renders the lines both views print.
type lineFormat struct {
	st         *iostreams.Styles
	prefixRuns bool // name the run on every line (several runs, or a log)
	namePlans  bool // several runs: say whose plan each status line is
	// width is a terminal's, which a test case's line is fitted to; nil
	// off a terminal, where lines stay whole.
	width func() int
}

func (p lineFormat) status(s *report.Progress, elapsed time.Duration) string {
	d := s.Detail
	line := fmt.Sprintf("run %s %s", termtext.SanitizeLine(d.ShortID), report.ColorStatus(p.st, termtext.SanitizeLine(report.DetailStatusText(d))))
	if verdict.Final(d.Status) {
		// The counts of the verdict, across the attempts of --retry-failed:
		// the summary below says the same.
		v := s.Verdict()
		line = fmt.Sprintf("run %s %s%s: %s", termtext.SanitizeLine(d.ShortID), report.RunStyle(p.st, v)(termtext.SanitizeLine(report.StatusText(v))),
			report.FinishedWhen(s.AlreadyFinished, elapsed), v.Counts)
	}
	if t := s.Plan.Title(); p.namePlans && t != "" && !s.Plan.TestCases {
		line += " — plan " + termtext.SanitizeLine(t)
	}
	return line
}

// testCase is a test case's line: its icon, name, how it ended unless it
// passed, and its result's title. On a terminal it is fitted to the width,
// never wrapped (a wrapped line breaks a word, and loses the indent): the
// title is cut, then left out, then the name is cut; how it ended stays.
func (p lineFormat) testCase(s *report.Progress, tc api.RunTestCase) string {
	head := "  "
	if p.prefixRuns {
		head = "run " + termtext.SanitizeLine(s.ShortID) + " "
	}
	head += p.icon(tc) + " "
	name, class, title := termtext.SanitizeLine(tc.Name), "", ""
	if c := verdict.ClassOf(tc, false); c != verdict.Passed {
		class = " (" + report.ClassStyle(p.st, c)(termtext.SanitizeLine(verdict.CaseWord(tc))) + ")"
	}
	if tc.ResultTitle != "" {
		title = " — " + termtext.SanitizeLine(tc.ResultTitle)
	}
	line := head + name + class + title
	if p.width == nil {
		return line
	}
	room := p.width() - 1 // at the last column, terminals wrap on the next character
	if ansi.StringWidth(line) <= room {
		return line
	}
	left := room - ansi.StringWidth(head+name+class)
	if title != "" && left >= minTitle {
		return head + name + class + ansi.Truncate(title, left, "…")
	}
	if left >= 0 {
		return head + name + class
	}
	if nameRoom := room - ansi.StringWidth(head+class); nameRoom >= minName {
		return head + ansi.Truncate(name, nameRoom, "…") + class
	}
	return ansi.Truncate(head+name+class, max(room, 1), "…")
}

// The least of a title and of a name worth showing cut on a test case's
// line.
const (
	minTitle = 12 // " — " and a word or two
	minName  = 8
)

func (p lineFormat) icon(tc api.RunTestCase) string {
	switch verdict.ClassOf(tc, false) {
	case verdict.Failed, verdict.Errored:
		return p.st.FailureIcon()
	case verdict.Skipped:
		return p.st.Warning("-")
	}
	return p.st.SuccessIcon()
}

// lineView is the line mode: a line per change of state.
type lineView struct {
	w  io.Writer
	lf lineFormat
}

func (v *lineView) println(line string) { fmt.Fprintln(v.w, line) }

func (v *lineView) Name() string { return "the line mode" }
func (v *lineView) RunChanged(s *report.Progress, elapsed time.Duration) {
	v.println(v.lf.status(s, elapsed))
}
func (v *lineView) RunEnded(s *report.Progress, elapsed time.Duration) {
	v.println(v.lf.status(s, elapsed))
}
func (v *lineView) CaseEnded(s *report.Progress, tc api.RunTestCase) { v.println(v.lf.testCase(s, tc)) }
func (v *lineView) Notice(msg string)                                { v.println(msg) }

// Retrying prints one line when a streak begins, not one per retry.
func (v *lineView) Retrying(s *report.Progress, _ time.Duration, err error) {
	v.println(fmt.Sprintf("warning: run %s: %s; retrying with backoff; the wait gives this run up after %d failed requests in a row, or at --timeout",
		termtext.SanitizeLine(s.ShortID), termtext.SanitizeLine(report.FirstLine(err.Error())), poll.MaxConsecutiveFailures))
}
func (v *lineView) Tick([]*report.Progress, time.Duration) {}

// End prints nothing: the summary, a reporter of its own, follows.
func (v *lineView) End(report.Outcome) error { return nil }

// Every consumer of the wait is a reporter of the one interface, behind the
// one multiplexer (runs.go): the views, the heartbeat and the early
// evidence here, the reports of the end in pkg/report.
var (
	_ report.Reporter = (*lineView)(nil)
	_ report.Reporter = (*liveView)(nil)
	_ report.Reporter = (*heartbeat)(nil)
	_ report.Reporter = (*earlyEvidence)(nil)
)
