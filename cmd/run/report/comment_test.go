package report_test

import (
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/prcomment/prcommenttest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// run report --comment keeps the same comment run wait would: "start now,
// report later" gets it too, edited by each report.
func TestReportKeepsThePullRequestComment(t *testing.T) {
	e := cmdtest.New(t)
	e.GitHubActions()
	gh := prcommenttest.NewGitHub(t, "ghs_token")
	gh.GitHubEnv(e.Setenv, e.Dir)
	failing := strings.TrimSpace(e.Run("run", "start", "--plan", sandbox.PlanFailing, "-q").Expect(t, 0).Stdout)
	passing := strings.TrimSpace(e.Run("run", "start", "--plan", "pln-passing_sandbox", "-q").Expect(t, 0).Stdout)
	e.Clock.Advance(2 * time.Minute)

	r := e.Run("run", "report", failing, "--comment").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "pull request comment created: ")
	r = e.Run("run", "report", passing, "--comment").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "pull request comment updated: ")
	all := gh.Comments()
	if len(all) != 1 || !strings.Contains(all[0].Body, "## ✅ testctl: passed (exit 0)") {
		t.Fatalf("want one comment saying passed, got %d:\n%v", len(all), all)
	}
}
