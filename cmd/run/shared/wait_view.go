package shared

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/termtext"
)

// progressView shows a wait in progress on stderr. Off a terminal it writes
// one line per change of state, never one per poll, so CI logs stay short;
// on a terminal a spinner line is redrawn with the elapsed time and the
// counts, and finished test cases scroll above it.
type progressView interface {
	statusChanged(s *runState, elapsed time.Duration)
	caseFinished(s *runState, tc api.RunTestCase)
	notice(msg string)
	// refresh redraws the live line; off a terminal it does nothing.
	refresh(states []*runState, elapsed time.Duration)
	stop()
}

// newProgressView picks the live view only where the contract allows
// animation; --debug writes to stderr too, and the two would garble.
func newProgressView(ios *iostreams.IOStreams, debug bool, runs int) progressView {
	p := lineFormat{st: ios.ErrStyles(), prefixRuns: true}
	if ios.ErrColorEnabled() && !debug {
		p.prefixRuns = runs > 1
		return &liveView{ios: ios, lf: p}
	}
	return &plainView{w: ios.ErrOut, lf: p}
}

// lineFormat renders the lines both views print.
type lineFormat struct {
	st         *iostreams.Styles
	prefixRuns bool // name the run on every line (several runs, or a log)
}

func (p lineFormat) status(s *runState, elapsed time.Duration) string {
	d := s.detail
	line := fmt.Sprintf("run %s %s", termtext.SanitizeLine(d.ShortID), p.st.Status(termtext.SanitizeLine(statusText(d))))
	if api.IsTerminalStatus(d.Status) {
		line += fmt.Sprintf(" after %s: %s", formatElapsed(elapsed), countCases(d.RunTestCases))
	}
	return line
}

func (p lineFormat) testCase(s *runState, tc api.RunTestCase) string {
	var b strings.Builder
	if p.prefixRuns {
		fmt.Fprintf(&b, "run %s ", termtext.SanitizeLine(s.target.ShortID))
	} else {
		b.WriteString("  ")
	}
	b.WriteString(p.icon(tc))
	b.WriteString(" ")
	b.WriteString(termtext.SanitizeLine(tc.Name))
	if out := caseOutcome(tc); out != api.ResultPassed {
		fmt.Fprintf(&b, " (%s)", p.st.Status(termtext.SanitizeLine(out)))
	}
	if tc.ResultTitle != "" {
		b.WriteString(" — ")
		b.WriteString(termtext.SanitizeLine(tc.ResultTitle))
	}
	return b.String()
}

func (p lineFormat) icon(tc api.RunTestCase) string {
	switch {
	case isTestCaseFailure(tc):
		return p.st.FailureIcon()
	case tc.Result == api.ResultSkipped:
		return p.st.Warning("-")
	}
	return p.st.SuccessIcon()
}

// plainView prints a line per change of state.
type plainView struct {
	w  io.Writer
	lf lineFormat
}

func (v *plainView) statusChanged(s *runState, elapsed time.Duration) {
	fmt.Fprintln(v.w, v.lf.status(s, elapsed))
}
func (v *plainView) caseFinished(s *runState, tc api.RunTestCase) {
	fmt.Fprintln(v.w, v.lf.testCase(s, tc))
}
func (v *plainView) notice(msg string)                  { fmt.Fprintln(v.w, msg) }
func (v *plainView) refresh([]*runState, time.Duration) {}
func (v *plainView) stop()                              {}

// liveView keeps a spinner line with the elapsed time and the counts. Lines
// are printed with the spinner stopped, so they never interleave with a
// redraw.
type liveView struct {
	ios *iostreams.IOStreams
	lf  lineFormat
	msg string
}

func (v *liveView) println(line string) {
	v.ios.StopSpinner()
	fmt.Fprintln(v.ios.ErrOut, line)
	if v.msg != "" {
		v.ios.StartSpinner(v.msg)
	}
}

// statusChanged prints only final statuses: the spinner shows the others.
func (v *liveView) statusChanged(s *runState, elapsed time.Duration) {
	if api.IsTerminalStatus(s.detail.Status) {
		v.println(v.lf.status(s, elapsed))
	}
}
func (v *liveView) caseFinished(s *runState, tc api.RunTestCase) { v.println(v.lf.testCase(s, tc)) }
func (v *liveView) notice(msg string)                            { v.println(msg) }

func (v *liveView) refresh(states []*runState, elapsed time.Duration) {
	v.msg = liveMessage(states, elapsed)
	v.ios.StartSpinner(v.msg) // starts it, or only changes the message
}

func (v *liveView) stop() {
	v.msg = ""
	v.ios.StopSpinner()
}

// liveMessage is the spinner's line: "run abc123 RUNNING 00:42 · 3 passed ·
// 1 failed · 2 running", or one segment per unfinished run.
func liveMessage(states []*runState, elapsed time.Duration) string {
	var segs []string
	for _, s := range states {
		if s.done {
			continue
		}
		seg := "run " + s.target.ShortID
		if s.detail == nil {
			seg += " waiting for the first answer"
		} else {
			seg += " " + s.detail.Status + " · " + countCases(s.detail.RunTestCases).String()
		}
		segs = append(segs, seg)
	}
	if len(segs) == 1 {
		head, rest, _ := strings.Cut(segs[0], " · ")
		if rest == "" {
			return head + " " + formatElapsed(elapsed)
		}
		return head + " " + formatElapsed(elapsed) + " · " + rest
	}
	return formatElapsed(elapsed) + " " + strings.Join(segs, "; ")
}
