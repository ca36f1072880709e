package e2e_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
)

// Several runs on a terminal get a live line each, redrawn in place as a
// block (cursor back to its first line, erased to the end of the screen),
// every line within the width; the summary follows once the block is gone.
func TestSeveralRunsLiveViewIsALinePerRun(t *testing.T) {
	e := cmdtest.New(t)
	const width = 50
	r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "run", "start", "--wait",
		"--plan", "pln-passing_sandbox", "--plan", "pln-failing_sandbox", "--plan", "pln-skipped_sandbox").Expect(t, 1)
	const redraw = "\x1b[3F\x1b[J" // up three lines, erase to the end
	frames := strings.Split(r.Stderr, redraw)
	if len(frames) < 3 {
		t.Fatalf("%d redraws of a three-line block:\n%q", len(frames)-1, r.Stderr)
	}
	for i, f := range frames[1 : len(frames)-1] {
		lines := strings.Split(strings.TrimSuffix(f, "\n"), "\n")
		block := lines[len(lines)-3:] // lines printed above come first
		for j, l := range block {
			if !strings.Contains(l, " run r") || !strings.Contains(l, "INITIATED") && !strings.Contains(l, "RUNNING") && !strings.Contains(l, "COMPLETED") {
				t.Errorf("frame %d line %d is not a run's: %q", i+1, j+1, l)
			}
			if w := ansi.StringWidth(l); w >= width {
				t.Errorf("frame %d line %d takes %d of %d columns: %q", i+1, j+1, w, width, l)
			}
		}
	}
	cmdtest.Contains(t, "the block", r.Stderr, " — Smoke") // the plan, last: cut first
	last := ansi.Strip(frames[len(frames)-1])
	cmdtest.Contains(t, "after the block", last, "✗ Run ", ": COMPLETED · FAILED")
}
