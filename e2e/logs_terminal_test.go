//go:build linux

package e2e_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/ptytest"
)

// Issue 33 on a real pseudo-terminal of 100 and 60 columns, whose size
// testctl finds out itself: the network table of the declined card keeps
// POST …/api/payments 502 on one line that fits, and the note that piped
// the text is whole follows it.
func TestLogsOnAPseudoTerminal(t *testing.T) {
	e := cmdtest.New(t)
	id := failingCases(t, e)["Pay with a declined card"]
	for _, width := range []int{100, 60} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			controller, terminal := ptytest.Open(t)
			ptytest.SetSize(t, terminal, uint16(width), 40)
			captured := ptytest.Capture(controller)
			if code := e.RunOnTerminalOnly(terminal, "logs", id, "--kind", "network", "--url", "payments|recommend|analytics"); code != 0 {
				t.Fatalf("exit %d", code)
			}
			terminal.Close()
			seen := captured()
			out := strings.ReplaceAll(ansi.Strip(seen), "\r", "")
			var payments string
			for _, l := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(l); w > width {
					t.Errorf("a line of %d columns: %q", w, l)
				}
				if strings.Contains(l, "POST") {
					payments = l
				}
			}
			if !strings.Contains(payments, "502") || !strings.Contains(payments, "/api/payments") {
				t.Errorf("the declined card's request lost its URL's end or status: %q\n%s", payments, out)
			}
			cmdtest.Contains(t, "terminal", out, "?sku=TR2-42", output.ShortenedNote)
		})
	}
}
