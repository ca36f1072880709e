//go:build linux

package iostreams

import (
	"bytes"
	"testing"

	"github.com/testctl/testctl/pkg/ptytest"
)

// The width of a terminal is what it says, narrowed by COLUMNS, never
// widened: a line fitted to a COLUMNS wider than the terminal would wrap.
// A terminal that does not say is COLUMNS wide, or 80; a stream that is no
// terminal is 80 whatever COLUMNS says.
func TestWidthHonoursColumns(t *testing.T) {
	_, terminal := ptytest.Open(t)
	ptytest.SetSize(t, terminal, 100, 40)
	for _, tc := range []struct {
		columns string
		want    int
	}{{"", 100}, {"60", 60}, {"200", 100}, {"wide", 100}, {"0", 100}, {"-3", 100}} {
		ios := New(bytes.NewReader(nil), &bytes.Buffer{}, terminal)
		ios.SetTerminalEnv("xterm", tc.columns)
		if got := ios.ErrTerminalWidth(); got != tc.want {
			t.Errorf("a 100-column terminal with COLUMNS=%q: %d, want %d", tc.columns, got, tc.want)
		}
		if got := ios.TerminalWidth(); got != 80 {
			t.Errorf("stdout no terminal, COLUMNS=%q: %d, want 80", tc.columns, got)
		}
	}

	// A terminal whose size is unknown (the streams cannot ask it).
	for _, tc := range []struct {
		columns string
		want    int
	}{{"", 80}, {"50", 50}, {"x", 80}} {
		ios, _, _, _ := Test()
		ios.SetStderrTTY(true)
		ios.SetTerminalEnv("xterm", tc.columns)
		if got := ios.ErrTerminalWidth(); got != tc.want {
			t.Errorf("a terminal of unknown size with COLUMNS=%q: %d, want %d", tc.columns, got, tc.want)
		}
	}
}
