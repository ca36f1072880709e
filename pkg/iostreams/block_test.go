package iostreams

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// A block of lines redrawn many times, at widths narrower than its lines,
// with lines printed above it meanwhile, leaves on screen exactly what the
// same lines would without any redraw: the lines above intact, the block's
// last frame once, each of its lines on one row; cleared, nothing of it.
func TestBlockRedrawsInPlaceAndNeverEatsTheLinesAbove(t *testing.T) {
	for _, width := range []int{20, 33, 50, 72} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			var term bytes.Buffer
			var above []string
			say := func(line string) {
				term.WriteString(line + "\n")
				above = append(above, line)
			}
			say("$ testctl run wait r1a2b3 r4c5d6 r7e8f9")
			say("✓ Started run r1a2b3 (5 tests)")
			b := &Block{w: &term, width: func() int { return width }}
			var frame []string
			for i := range 30 {
				frame = []string{
					fmt.Sprintf("⠋ run r1a2b3 RUNNING 00:%02d · %d passed · 1 failed · 2 running · 1 queued", i, i),
					fmt.Sprintf("⠋ run r4c5d6 \x1b[2Jwaiting for the first answer %d", i),
					fmt.Sprintf("⠋ run r7e8f9 COMPLETED · PASSED after 00:%02d: 日本語のテストケース %d passed", i, i),
				}
				b.Draw(frame)
				if i%7 == 3 {
					line := fmt.Sprintf("run r1a2b3 ✓ test case %d — passed", i)
					b.Println(line)
					above = append(above, line)
				}
			}
			// What the same lines leave when simply printed once.
			static := strings.Join(above, "\n") + "\n"
			for _, l := range frame {
				static += fitLine(strings.ReplaceAll(l, "\x1b[2J", ""), width-1) + "\n"
			}
			got, want := screenOf(width, term.Bytes()), screenOf(width, []byte(static))
			if got != want {
				t.Errorf("at %d columns the screen is\n%s\nwant\n%s", width, got, want)
			}
			if rows := strings.Count(want, "\n") + 1; rows != strings.Count(screenOf(width, []byte(strings.Join(above, "\n"))), "\n")+1+len(frame) {
				t.Errorf("a block line took more than one row:\n%s", want)
			}
			b.Clear()
			term.WriteString("END\n")
			got, want = screenOf(width, term.Bytes()), screenOf(width, []byte(strings.Join(append(above, "END"), "\n")))
			if got != want {
				t.Errorf("cleared, at %d columns the screen is\n%s\nwant\n%s", width, got, want)
			}
		})
	}
}

// screenOf is what b leaves on a terminal of width columns, its newlines
// made CR LF as a terminal's line discipline does (onlcr).
func screenOf(width int, b []byte) string {
	s := newScreen(width)
	_, _ = s.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
	return s.text()
}
