package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// The documented recipe: start in one step, wait in a later one, which is
// a new process with fresh step files.
func TestStartNowWaitLaterInGitHubActions(t *testing.T) {
	e := cmdtest.New(t)
	startOut := e.GitHubActions()
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "-q").Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	started := cmdtest.ReadGitHubOutput(t, startOut)
	if started["run_short_id"] != id || !strings.HasSuffix(started["run_url"], "/runs/"+id) {
		t.Fatalf("outputs of run start without --wait: %q", started)
	}
	if _, ok := started["run_status"]; ok {
		t.Errorf("run start wrote a run_status before any wait: %q", started)
	}

	waitOut := e.GitHubActions()
	e.Run("run", "wait", started["run_short_id"]).Expect(t, 0)
	waited := cmdtest.ReadGitHubOutput(t, waitOut)
	if waited["run_url"] != started["run_url"] || waited["run_result"] != "PASSED" {
		t.Errorf("outputs of the later run wait: %q", waited)
	}
	if strings.Contains(waited["runs_json"], `"url":""`) {
		t.Errorf("runs_json with an empty url: %s", waited["runs_json"])
	}
}

// A run this machine did not start has its URL from the run list.
func TestWaitFindsTheURLOfARunStartedElsewhere(t *testing.T) {
	e := cmdtest.New(t)
	id := strings.TrimSpace(e.Run("run", "start", "--plan", "pln-failing_sandbox", "-q").Expect(t, 0).Stdout)
	e.Setenv("XDG_CACHE_HOME", e.Dir+"/another-machine")
	out := e.GitHubActions()
	e.Run("run", "wait", id).Expect(t, 1)
	if got := cmdtest.ReadGitHubOutput(t, out)["run_url"]; !strings.HasSuffix(got, "/runs/"+id) {
		t.Errorf("run_url %q", got)
	}
}
