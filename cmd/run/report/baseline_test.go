package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// run report classes the failures of a run that ended, as the wait does.
func TestReportWithBaseline(t *testing.T) {
	e := cmdtest.New(t, cmdtest.WithSandbox(sandbox.Options{BaselineHistory: true}))
	r := e.Run("run", "start", "--plan", sandbox.PlanBaseline, "--branch", "feature", "-q").Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	e.Clock.Advance(time.Minute)
	r = e.Run("run", "report", id, "--baseline", "main", "--evidence", "0").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "against run b", "failures: 1 new failure · 1 known")
	q := e.WriteFile("q.yaml", "- name: Pay with a declined card\n  owner: team\n  until: 2099-01-01\n")
	e.Run("run", "report", id, "--baseline", "main", "--fail-on", "new", "--quarantine", q, "--evidence", "0").Expect(t, 0)
}
