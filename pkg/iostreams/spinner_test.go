package iostreams

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSpinnerIsNoOpOffTTY(t *testing.T) {
	ios, _, out, errOut := Test()
	ios.StartSpinner("waiting for run-1")
	ios.StartSpinner("still waiting")
	ios.StopSpinner()
	ios.StopSpinner() // stopping twice, or without a start, is fine
	if out.Len() != 0 || errOut.Len() != 0 {
		t.Fatalf("spinner wrote off a terminal: out=%q err=%q", out, errOut)
	}
}

// TERM=dumb is line mode: a terminal that cannot redraw gets no spinner.
func TestSpinnerIsNoOpOnADumbTerminal(t *testing.T) {
	ios, _, _, errOut := Test()
	ios.SetStderrTTY(true)
	ios.SetTerminalEnv("dumb", "")
	ios.StartSpinner("waiting for run-1")
	ios.StopSpinner()
	if errOut.Len() != 0 || ios.CanRedrawStderr() {
		t.Fatalf("spinner on TERM=dumb: %q", errOut)
	}
}

// NO_COLOR (and --no-color) removes colour, nothing else: the spinner
// still turns, without a colour sequence.
func TestSpinnerUnderNoColor(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(*IOStreams)
	}{
		{"NO_COLOR", func(s *IOStreams) { s.SetNoColorEnv(true) }},
		{"--no-color", func(s *IOStreams) { s.SetColorDisabled(true) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, errOut := Test()
			ios.SetStderrTTY(true)
			tt.setup(ios)
			ios.StartSpinner("run r1 RUNNING")
			ios.StopSpinner()
			got := errOut.String()
			if !strings.Contains(got, "run r1 RUNNING") {
				t.Fatalf("no spinner under %s: %q", tt.name, got)
			}
			if colourSeq.MatchString(got) {
				t.Errorf("a colour under %s: %q", tt.name, got)
			}
		})
	}
}

var colourSeq = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestSpinnerLineIsSanitised(t *testing.T) {
	sp := &spinnerLine{width: func() int { return 80 }, msg: "run \x1b]0;pwned\x07name\n"}
	if got := sp.line(); got != "\r\x1b[J"+SpinnerFrame(0)+" run name \r" {
		t.Fatalf("line = %q", got)
	}
}

func TestSpinnerLifecycleOnTTY(t *testing.T) {
	ios, _, out, errOut := Test()
	ios.SetStderrTTY(true)
	ios.StartSpinner("one")
	ios.StartSpinner("two") // only changes the message
	ios.StartSpinner("three")
	ios.StopSpinner()
	if out.Len() != 0 {
		t.Fatalf("spinner wrote to stdout: %q", out)
	}
	if got := errOut.String(); !strings.HasPrefix(got, hideCursor+"\r") || !strings.HasSuffix(got, "\r\x1b[J"+showCursor) {
		t.Fatalf("stderr: %q", got)
	}
}

// The live line never wraps, at any width, counted in cells as the
// terminal counts them; and a frame never moves the cursor up, so it can
// erase nothing but its own line: it starts where the last one did and
// leaves the cursor there.
func TestSpinnerLineFitsEveryWidth(t *testing.T) {
	msg := "run r1a2b3 RUNNING 01:02:03 · 12 passed · 3 failed · 1 skipped · 2 running · 漢字のテスト名前"
	for w := 20; w <= 140; w++ {
		sp := &spinnerLine{width: func() int { return w }, msg: msg}
		line := sp.line()
		// No other control: nothing moves the cursor up.
		body, ok1 := strings.CutPrefix(line, "\r"+eraseDown)
		body, ok2 := strings.CutSuffix(body, "\r")
		if !ok1 || !ok2 || strings.ContainsAny(body, "\r\n\x1b") {
			t.Fatalf("width %d: not one line drawn from its start, back to its start: %q", w, line)
		}
		if cols := ansi.StringWidth(line); cols > w-1 {
			t.Fatalf("width %d: the line takes %d columns: %q", w, cols, line)
		}
		if w < 80 && !strings.HasSuffix(body, "…") {
			t.Errorf("width %d: cut without an ellipsis: %q", w, line)
		}
	}
}
