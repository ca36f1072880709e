package e2e_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Issue 39, point 6: a command the failure story suggests is never cut or
// wrapped by testctl, and at a narrow width it stands alone on its line, so
// that a triple-click copies it: the "more:" label goes on a line of its
// own, where label and command would not fit the width together.
func TestSuggestedCommandsStandWhole(t *testing.T) {
	e := cmdtest.New(t)
	command := regexp.MustCompile(`^testctl (logs \S+ --kind (network --status errors|console)|run get \S+ --issues|run rerun \S+ --failed-only --wait)$`)
	for _, width := range []int{40, 60, 72, 100} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "run", "start", "--plan", sandbox.PlanFailing, "--wait", "--no-color").Expect(t, 1)
			story := r.Stderr[strings.Index(r.Stderr, "✗ Run "):]
			labelled, alone := 0, 0
			for line := range strings.Lines(story) {
				line = strings.TrimSuffix(line, "\n")
				i := strings.Index(line, "testctl ")
				if strings.TrimSpace(line) == "more:" {
					alone++
				}
				if i < 0 {
					continue
				}
				if !command.MatchString(line[i:]) {
					t.Errorf("not a whole command: %q", line)
				}
				switch before := strings.TrimSpace(line[:i]); {
				case before == "more:" && len(line) < width:
					labelled++
				case before != "":
					t.Errorf("at %d columns a command shares its line with %q: %q", width, before, line)
				}
			}
			// 53 columns for the widest, 6 of indent and 6 of label.
			if wide := width > 65; wide && (labelled != 2 || alone != 0) || !wide && (labelled != 0 || alone != 2) {
				t.Errorf("at %d columns %d commands beside the label, %d labels alone:\n%s", width, labelled, alone, story)
			}
		})
	}
}
