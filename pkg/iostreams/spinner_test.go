package iostreams

import (
	"strings"
	"testing"
	"unicode/utf8"

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

func TestSpinnerRespectsNoColor(t *testing.T) {
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
			if ios.ErrColorEnabled() {
				t.Fatal("spinner must not be allowed")
			}
			ios.StartSpinner("x")
			ios.StopSpinner()
			if errOut.Len() != 0 {
				t.Fatalf("spinner wrote: %q", errOut)
			}
		})
	}
}

func TestSpinnerSuffixIsSanitised(t *testing.T) {
	ios, _, _, _ := Test()
	if got := ios.suffix("run \x1b]0;pwned\x07name\n"); got != " run name " {
		t.Fatalf("suffix = %q", got)
	}
}

func TestSpinnerLifecycleOnTTY(t *testing.T) {
	ios, _, out, _ := Test()
	ios.SetStderrTTY(true)
	ios.StartSpinner("one")
	ios.StartSpinner("two") // only changes the message
	ios.StartSpinner("three")
	ios.StopSpinner()
	if out.Len() != 0 {
		t.Fatalf("spinner wrote to stdout: %q", out)
	}
}

// The live line never wraps, at any width: a wrapped line cannot be erased
// by the redraw.
func TestSpinnerSuffixFitsEveryWidth(t *testing.T) {
	ios, _, _, _ := Test()
	msg := "run r1a2b3 RUNNING 01:02:03 · 12 passed · 3 failed · 1 skipped · 2 running · 漢字のテスト名前"
	for w := 20; w <= 140; w++ {
		ios.SetTerminalWidth(w)
		line := "⠋" + ios.suffix(msg)
		if cols, runes := ansi.StringWidth(line), utf8.RuneCountInString(line); cols > w-1 || runes > w-1 {
			t.Fatalf("width %d: the line takes %d columns, %d runes: %q", w, cols, runes, line)
		}
		if w < 80 && !strings.HasSuffix(line, "…") {
			t.Errorf("width %d: cut without an ellipsis: %q", w, line)
		}
	}
}
