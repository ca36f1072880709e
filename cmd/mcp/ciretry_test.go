package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
)

// An agent's start_run is never a CI retry's take-up: in a retried GitHub
// Actions job whose first attempt ran the plan on the commit, it starts a
// run of its own, and never asks when the attempts began.
func TestStartRunNeverTakesUpAnEarlierAttemptsRun(t *testing.T) {
	e := cmdtest.New(t)
	began := e.Clock.Now()
	asked := 0
	attempts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		fmt.Fprintf(w, `{"run_started_at":%q}`, began.Format(time.RFC3339))
	}))
	t.Cleanup(attempts.Close)
	e.Clock.Advance(time.Minute)
	const sha = "0123456789abcdef0123456789abcdef01234567"
	e.GitHubActions()
	for k, v := range map[string]string{"GITHUB_RUN_ID": "7", "GITHUB_REPOSITORY": "octo/shop", "GITHUB_SHA": sha,
		"GITHUB_REF": "refs/heads/main", "GITHUB_REF_NAME": "main", "GITHUB_ACTOR": "octocat", "GITHUB_TOKEN": "ghs_token", "GITHUB_API_URL": attempts.URL} {
		e.Setenv(k, v)
	}
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--codehost", "--wait").Expect(t, 0)
	e.Clock.Advance(time.Minute)
	e.Setenv("GITHUB_RUN_ATTEMPT", "2")
	// The same start on the command line takes up the first attempt's run.
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--codehost").Expect(t, 0)
	if e.Requests("POST /v1/run") != 1 || asked == 0 {
		t.Fatalf("the command line started anew (%d starts, %d reads): the test proves nothing", e.Requests("POST /v1/run"), asked)
	}
	asked = 0
	a := connect(t, e, false)
	res := a.call(t, context.Background(), "start_run", map[string]any{"plans": []string{"pln-passing_sandbox"}, "codehost": true, "wait": false})
	if e.Requests("POST /v1/run") != 2 || asked != 0 {
		t.Errorf("start_run: %d starts in all, %d reads of the attempts API; want a new run and none:\n%s", e.Requests("POST /v1/run"), asked, res.text)
	}
}
