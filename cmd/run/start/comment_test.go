package start_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/prcomment/prcommenttest"
)

// run start --wait --comment keeps the pull request comment at the end of
// the wait; without --wait the flag is a mistake said before anything is
// started.
func TestStartWaitKeepsThePullRequestComment(t *testing.T) {
	e := cmdtest.New(t)
	e.GitHubActions()
	gh := prcommenttest.NewGitHub(t, "ghs_token")
	gh.GitHubEnv(e.Setenv, e.Dir)

	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--comment").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--comment applies to --wait; add --wait or drop it")
	if n := e.Requests(postRun); n != 0 || len(gh.Requests()) != 0 {
		t.Fatalf("%d runs started and %d comment requests on bad input", n, len(gh.Requests()))
	}

	r = e.Run("run", "start", "--plan", "pln-failing_sandbox", "--wait", "--comment").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "pull request comment created: ")
	all := gh.Comments()
	if len(all) != 1 || !strings.Contains(all[0].Body, "## ❌ testctl: failed (exit 1)") || !strings.Contains(all[0].Body, "<details>") {
		t.Fatalf("want one comment with the failure story, got %d:\n%v", len(all), all)
	}
}
