package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Issue 39, point 3: on a terminal, each test case's progress line fits
// the width (the title cut or left out, then the name cut with "…", how
// the test case ended kept), so the terminal never wraps it mid-word; off
// a terminal the lines are whole.
func TestCaseLinesFitTheTerminal(t *testing.T) {
	e := cmdtest.New(t)
	for _, width := range []int{40, 60, 72} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "run", "start", "--plan", sandbox.PlanFailing, "--wait").Expect(t, 1)
			seen := ansi.Strip(r.Stderr)
			lines := caseLines(seen[:strings.Index(seen, "✗ Run ")])
			if len(lines) != 7 {
				t.Fatalf("%d test case lines, want 7:\n%s", len(lines), strings.Join(lines, "\n"))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w >= width {
					t.Errorf("a line of %d columns at %d: %q", w, width, l)
				}
			}
			cmdtest.Contains(t, "the lines", strings.Join(lines, "\n"), "  ✗ Apply an expired coupon (FAILED)", "  ✗ Pay with a declined card (FAILED)")
			if width == 40 {
				cmdtest.Contains(t, "the lines", strings.Join(lines, "\n"), "  - Receive the order confir… (SKIPPED)\n")
			}
		})
	}
	r := e.Run("run", "start", "--plan", sandbox.PlanFailing, "--wait").Expect(t, 1)
	cmdtest.Contains(t, "stderr off a terminal", r.Stderr,
		"✗ Apply an expired coupon (FAILED) — Expired coupon SPRING-2019 was accepted and discounted the total\n",
		"- Receive the order confirmation email (SKIPPED) — Not run: waits for \"Apply an expired coupon\", which did not pass\n")
}

// caseLines are the test case lines a terminal shows of stderr without
// colour: each line as its last carriage return leaves it.
func caseLines(stderr string) []string {
	var out []string
	for line := range strings.Lines(stderr) {
		line = strings.TrimSuffix(line, "\n")
		if i := strings.LastIndex(line, "\r"); i >= 0 {
			line = line[i+1:]
		}
		if isCaseLine(line) {
			out = append(out, line)
		}
	}
	return out
}
