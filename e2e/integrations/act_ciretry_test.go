package integrations_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
)

// "Re-run failed jobs" under act (GITHUB_RUN_ATTEMPT=2): a first attempt
// that failed has only its failed test cases rerun, and passes with them
// marked flaky; after a first attempt that passed, the second starts
// nothing. When each attempt began comes from a fake of GitHub's
// attempts API, read with the Action's github-token.
func TestActRetriedJobTakesUpTheEarlierAttempt(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	const token = "ghs_e2eRetryToken0123456789"
	const sha = "89abcdef0123456789abcdef0123456789abcdef"
	var mu sync.Mutex
	began := map[string]time.Time{} // "RUNID/ATTEMPT"
	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var run, attempt string
		if _, err := fmt.Sscanf(r.URL.Path, "/repos/octo/shop/actions/runs/%s", &run); err != nil || r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
			return
		}
		run, attempt, _ = strings.Cut(run, "/attempts/")
		at, ok := began[run+"/"+attempt]
		if !ok {
			http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
			return
		}
		fmt.Fprintf(w, `{"run_attempt":%s,"run_started_at":%q}`, attempt, at.UTC().Format(time.RFC3339))
	}))
	t.Cleanup(gh.Close)
	// The sandbox's clock runs 100 times faster than this one: when each
	// attempt began is said in its time, from the runs it lists (attempt
	// 1 began a second before its first run, a retry a second after the
	// last).
	client := &api.Client{BaseURL: sb.BaseURL, APIKey: testKey}
	runsOf := func(plan string) (first, last time.Time) {
		list, err := client.ListRuns(context.Background(), api.ListRunsOptions{TestPlanShortID: plan, CommitHash: sha})
		if err != nil || len(list.Runs) == 0 {
			t.Fatalf("listing the runs of %s: %v", plan, err)
		}
		for _, r := range list.Runs {
			at := api.Time(&r.CreatedAt)
			if first.IsZero() || at.Before(first) {
				first = at
			}
			if at.After(last) {
				last = at
			}
		}
		return first, last
	}
	attempt := func(workflowRun string, n int, plan string) actResult {
		if n > 1 {
			first, last := runsOf(plan)
			mu.Lock()
			began[workflowRun+"/1"], began[fmt.Sprintf("%s/%d", workflowRun, n)] = first.Add(-time.Second), last.Add(time.Second)
			mu.Unlock()
		}
		in := with(actInputs(rel, sb, plan), "github-token", token, "args", "--commit "+sha+" --branch main")
		return runAct(t, actWorkflow{Jobs: map[string]any{"test": actJob(in)},
			Env: map[string]string{"GITHUB_API_URL": gh.URL, "GITHUB_REPOSITORY": "octo/shop",
				"GITHUB_RUN_ID": workflowRun, "GITHUB_RUN_ATTEMPT": strconv.Itoa(n)}})
	}
	stats := func() (starts, reruns int) {
		s := sb.Server.Stats().Requests
		return s["POST /v1/run"], s["POST /v1/run/{shortId}"]
	}

	first := attempt("101", 1, "pln-flaky_sandbox")
	cmdtest.WantValues(t, "attempt 1", first.outputs(t, "test"), map[string]string{"verdict": "failed", "exit-code": "1"})
	retry := attempt("101", 2, "pln-flaky_sandbox")
	out := retry.outputs(t, "test")
	cmdtest.WantValues(t, "attempt 2", out, map[string]string{"verdict": "passed", "exit-code": "0"})
	if !strings.HasPrefix(out["ci-retry"], "rerun-failed:") {
		t.Errorf("output ci-retry %q, want rerun-failed:ID", out["ci-retry"])
	}
	for _, want := range []string{"GitHub Actions: attempt 2 of this job", "Rerunning the 2 failed test cases of run ", "(started by attempt 1)",
		"passed when the CI job was retried"} {
		if !strings.Contains(retry.Log, want) {
			t.Errorf("attempt 2's log lacks %q:\n%s", want, retry.Log)
		}
	}
	if starts, reruns := stats(); starts != 1 || reruns != 1 {
		t.Errorf("%d starts and %d reruns, want the first attempt's start and the retry's rerun", starts, reruns)
	}
	junit := cmdtest.ReadJUnitFile(t, filepath.Join(retry.Out, "test", "testctl-junit.xml"))
	flaky := 0
	for _, s := range junit.Suites {
		for _, c := range s.Cases {
			flaky += len(c.FlakyFailures)
		}
	}
	if len(junit.Suites) != 1 || flaky != 2 {
		t.Errorf("JUnit: %d suites, %d flakyFailure elements; want one suite, 2", len(junit.Suites), flaky)
	}

	passed := attempt("102", 1, "pln-passing_sandbox")
	cmdtest.WantValues(t, "a passing attempt 1", passed.outputs(t, "test"), map[string]string{"verdict": "passed", "exit-code": "0"})
	id := passed.outputs(t, "test")["run-short-id"]
	again := attempt("102", 2, "pln-passing_sandbox")
	cmdtest.WantValues(t, "its attempt 2", again.outputs(t, "test"),
		map[string]string{"verdict": "passed", "exit-code": "0", "ci-retry": "reused:" + id, "run-short-id": id})
	if !strings.Contains(again.Log, "passed in run "+id+", started by attempt 1: not run again") {
		t.Errorf("attempt 2's log does not say the run was reused:\n%s", again.Log)
	}
	if starts, _ := stats(); starts != 2 {
		t.Errorf("%d starts in all, want 2 (none by the second attempt)", starts)
	}
	if strings.Contains(first.Log+retry.Log+passed.Log+again.Log, token) {
		t.Error("the token appears in act's log")
	}
}
