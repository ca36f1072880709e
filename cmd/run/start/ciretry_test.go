package start_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// attemptsAPI is a fake of GitHub's workflow run attempts API (GET
// /repos/{repo}/actions/runs/{id}/attempts/{n}): the start time of each
// attempt, set as the test goes.
type attemptsAPI struct {
	mu     sync.Mutex
	starts map[int]time.Time
	down   bool
	// forbidden: the token may not read the workflow's attempts.
	forbidden bool
	reads     int
	auth      []string
}

func newAttemptsAPI(t *testing.T) (*attemptsAPI, *httptest.Server) {
	a := &attemptsAPI{starts: map[int]time.Time{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		defer a.mu.Unlock()
		a.reads++
		a.auth = append(a.auth, r.Header.Get("Authorization"))
		const prefix = "/repos/octo/shop/actions/runs/4242/attempts/"
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, prefix))
		if a.forbidden {
			http.Error(w, `{"message":"Resource not accessible by integration"}`, http.StatusForbidden)
			return
		}
		if a.down {
			http.Error(w, `{"message":"Server Error"}`, http.StatusBadGateway)
			return
		}
		if !strings.HasPrefix(r.URL.Path, prefix) || err != nil || a.starts[n].IsZero() {
			http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
			return
		}
		fmt.Fprintf(w, `{"id":4242,"run_attempt":%d,"run_started_at":%q}`, n, a.starts[n].UTC().Format(time.RFC3339))
	}))
	t.Cleanup(srv.Close)
	return a, srv
}

func (a *attemptsAPI) begin(n int, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.starts[n] = at
}

// ciAttempt makes e attempt n of a GitHub Actions job of the workflow run
// the fake API knows, begun now.
func ciAttempt(e *cmdtest.Env, a *attemptsAPI, srv *httptest.Server, n int) (outputPath string) {
	outputPath = e.GitHubActions()
	a.begin(n, e.Clock.Now())
	e.Setenv("GITHUB_RUN_ATTEMPT", strconv.Itoa(n))
	e.Setenv("GITHUB_RUN_ID", "4242")
	e.Setenv("GITHUB_REPOSITORY", "octo/shop")
	e.Setenv("GITHUB_API_URL", srv.URL)
	e.Setenv("GITHUB_TOKEN", "ghs_attemptstoken")
	return outputPath
}

var commit = []string{"--commit", "0123456789abcdef0123456789abcdef01234567", "--branch", "feature/cart"}

func startArgs(plan string, more ...string) []string {
	return append(append([]string{"run", "start", "--plan", plan}, commit...), more...)
}

// A failed first attempt, then "Re-run failed jobs": the second attempt
// reruns only the failed test cases of the first attempt's run, and the
// verdict combines both: the test cases that pass now are flaky.
func TestCIRetryRerunsTheEarlierAttemptsFailures(t *testing.T) {
	e := cmdtest.New(t)
	api, srv := newAttemptsAPI(t)
	e.Clock.Advance(time.Minute)
	ciAttempt(e, api, srv, 1)
	firstID := strings.TrimSpace(e.Run(startArgs(sandbox.PlanFlaky, "--wait", "-q")...).Expect(t, 1).Stdout)
	if n := e.Requests(postRun); n != 1 {
		t.Fatalf("%d starts in attempt 1", n)
	}

	e.Clock.Advance(5 * time.Minute)
	out := ciAttempt(e, api, srv, 2)
	junit := e.Dir + "/junit.xml"
	r := e.Run(startArgs(sandbox.PlanFlaky, "--wait", "--junit", junit)...).Expect(t, 0)
	if n := e.Requests(postRun); n != 1 {
		t.Errorf("attempt 2 started the plan again: %d starts in all", n)
	}
	if n := e.Requests("POST /v1/run/{shortId}"); n != 1 {
		t.Errorf("%d reruns of %s, want 1", n, firstID)
	}
	cmdtest.Contains(t, "stderr", r.Stderr,
		"GitHub Actions: attempt 2 of this job: taking up the runs of the earlier attempts",
		"Rerunning the 2 failed test cases of run "+firstID+" (started by attempt 1) as run ",
		"passed when the CI job was retried",
		"the CI job was retried: the test cases that did not pass in run "+firstID+", started by attempt 1, were rerun as run ")
	if strings.Contains(r.Stderr, "Started run") {
		t.Errorf("a new run was announced:\n%s", r.Stderr)
	}
	suites := cmdtest.ReadJUnitFile(t, junit)
	if len(suites.Suites) != 1 {
		t.Fatalf("%d suites, want one for the plan", len(suites.Suites))
	}
	flaky := 0
	for _, c := range suites.Suites[0].Cases {
		flaky += len(c.FlakyFailures)
	}
	if flaky != 2 {
		t.Errorf("%d flakyFailure elements, want 2", flaky)
	}
	outputs := cmdtest.ReadGitHubOutput(t, out)
	if got := outputs["ci-retry"]; !strings.HasPrefix(got, "rerun-failed:r") {
		t.Errorf("ci-retry output %q", got)
	}
	summary, _ := os.ReadFile(e.Getenv("GITHUB_STEP_SUMMARY"))
	cmdtest.Contains(t, "step summary", string(summary), "were rerun as run", "passed when the CI job was retried")
	for _, h := range api.auth {
		if h != "Bearer ghs_attemptstoken" {
			t.Errorf("the attempts API got Authorization %q", h)
		}
	}
}

// A passed first attempt (another job of the workflow failed): the retry
// starts nothing and says so in every report, its verdict decided again.
func TestCIRetryReusesAPassedRun(t *testing.T) {
	e := cmdtest.New(t)
	api, srv := newAttemptsAPI(t)
	ciAttempt(e, api, srv, 1)
	id := strings.TrimSpace(e.Run(startArgs(sandbox.PlanPassing, "--wait", "-q")...).Expect(t, 0).Stdout)

	e.Clock.Advance(10 * time.Minute)
	out := ciAttempt(e, api, srv, 2)
	ctrf := e.Dir + "/ctrf.json"
	r := e.Run(startArgs(sandbox.PlanPassing, "--wait", "-q", "--ctrf", ctrf)...).Expect(t, 0)
	if n := e.Requests(postRun); n != 1 {
		t.Errorf("%d starts in all, want the first attempt's only", n)
	}
	if r.Stdout != id+"\n" {
		t.Errorf("-q printed %q, want the reused run %s", r.Stdout, id)
	}
	note := "passed in run " + id + ", started by attempt 1: not run again"
	cmdtest.Contains(t, "stderr", r.Stderr, note)
	summary, _ := os.ReadFile(e.Getenv("GITHUB_STEP_SUMMARY"))
	cmdtest.Contains(t, "step summary", string(summary), note)
	data, _ := os.ReadFile(ctrf)
	cmdtest.Contains(t, "CTRF", string(data), `"ciRetry": "reused"`)
	outputs := cmdtest.ReadGitHubOutput(t, out)
	cmdtest.WantValues(t, "outputs", outputs, map[string]string{"ci-retry": "reused:" + id, "exit-code": "0", "verdict": "passed"})

	// Without --wait the reused run is named and the step passes.
	e.Clock.Advance(time.Minute)
	out = ciAttempt(e, api, srv, 3)
	r = e.Run(startArgs(sandbox.PlanPassing, "-q")...).Expect(t, 0)
	if r.Stdout != id+"\n" || e.Requests(postRun) != 1 {
		t.Errorf("attempt 3: stdout %q, %d starts", r.Stdout, e.Requests(postRun))
	}
	cmdtest.WantValues(t, "attempt 3's outputs", cmdtest.ReadGitHubOutput(t, out),
		map[string]string{"ci-retry": "reused:" + id, "run_short_id": id, "exit-code": "0", "verdict": "started"})

	// A token that may not read the workflow's attempts: said, with the
	// permission it needs, and a new run.
	e.Clock.Advance(time.Minute)
	ciAttempt(e, api, srv, 4)
	api.mu.Lock()
	api.forbidden = true
	api.mu.Unlock()
	r = e.Run(startArgs(sandbox.PlanPassing)...).Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "(attempt 1: HTTP 403: Resource not accessible by integration; the token needs the permission actions: read): starting anew")
}

// The first attempt was cancelled while its run went on: the retry waits
// on that run rather than start another.
func TestCIRetryWaitsOnARunStillGoing(t *testing.T) {
	e := cmdtest.New(t)
	api, srv := newAttemptsAPI(t)
	ciAttempt(e, api, srv, 1)
	id := strings.TrimSpace(e.Run(startArgs(sandbox.PlanSlow, "-q")...).Expect(t, 0).Stdout)

	e.Clock.Advance(30 * time.Second)
	ciAttempt(e, api, srv, 2)
	r := e.Run(startArgs(sandbox.PlanSlow, "--wait")...)
	if n := e.Requests(postRun); n != 1 {
		t.Errorf("%d starts in all", n)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Run "+id+" of plan "+sandbox.PlanSlow+", started by attempt 1, is still RUNNING: waiting on it, not starting it again",
		"run "+id+", started by attempt 1, was still going: waited on, not started again")
}

// What cannot be taken up is started anew, and one line says why.
func TestCIRetryStartsAnewSayingWhy(t *testing.T) {
	t.Run("two runs of the plan on the commit: matrix jobs", func(t *testing.T) {
		e := cmdtest.New(t)
		api, srv := newAttemptsAPI(t)
		ciAttempt(e, api, srv, 1)
		e.Run(startArgs(sandbox.PlanPassing, "--wait")...).Expect(t, 0)
		e.Run(startArgs(sandbox.PlanPassing, "--wait")...).Expect(t, 0)
		e.Clock.Advance(time.Minute)
		ciAttempt(e, api, srv, 2)
		r := e.Run(startArgs(sandbox.PlanPassing, "--wait")...).Expect(t, 0)
		cmdtest.Contains(t, "stderr", r.Stderr, "2 runs of "+sandbox.PlanPassing+" on this commit since attempt 1 began (matrix jobs?): starting anew",
			"Started run ")
		if n := e.Requests(postRun); n != 3 {
			t.Errorf("%d starts", n)
		}
	})
	t.Run("the earlier run ended in error", func(t *testing.T) {
		e := cmdtest.New(t)
		api, srv := newAttemptsAPI(t)
		ciAttempt(e, api, srv, 1)
		e.Run(startArgs(sandbox.PlanErroring, "--wait")...)
		e.Clock.Advance(time.Minute)
		ciAttempt(e, api, srv, 2)
		r := e.Run(startArgs(sandbox.PlanErroring, "--wait")...)
		cmdtest.Contains(t, "stderr", r.Stderr, "(attempt 1) ended ERROR: starting anew")
		if n := e.Requests(postRun); n != 2 {
			t.Errorf("%d starts", n)
		}
	})
	t.Run("GitHub's API unreachable", func(t *testing.T) {
		e := cmdtest.New(t)
		api, srv := newAttemptsAPI(t)
		ciAttempt(e, api, srv, 1)
		e.Run(startArgs(sandbox.PlanPassing, "--wait")...).Expect(t, 0)
		ciAttempt(e, api, srv, 2)
		api.mu.Lock()
		api.down = true
		api.mu.Unlock()
		r := e.Run(startArgs(sandbox.PlanPassing, "--wait")...).Expect(t, 0)
		cmdtest.Contains(t, "stderr", r.Stderr, "when attempt 1 began could not be read (attempt 1: HTTP 502: Server Error): starting anew")
		if n := e.Requests(postRun); n != 2 {
			t.Errorf("%d starts", n)
		}
	})
	t.Run("no token", func(t *testing.T) {
		e := cmdtest.New(t)
		api, srv := newAttemptsAPI(t)
		ciAttempt(e, api, srv, 2)
		e.Setenv("GITHUB_TOKEN", "")
		r := e.Run(startArgs(sandbox.PlanPassing)...).Expect(t, 0)
		cmdtest.Contains(t, "stderr", r.Stderr, "GITHUB_TOKEN is not set: pass it to the step")
	})
	t.Run("--ci-retry all", func(t *testing.T) {
		e := cmdtest.New(t)
		api, srv := newAttemptsAPI(t)
		ciAttempt(e, api, srv, 1)
		e.Run(startArgs(sandbox.PlanPassing, "--wait")...).Expect(t, 0)
		ciAttempt(e, api, srv, 2)
		reads := api.reads
		r := e.Run(startArgs(sandbox.PlanPassing, "--ci-retry", "all")...).Expect(t, 0)
		if n := e.Requests(postRun); n != 2 {
			t.Errorf("%d starts", n)
		}
		if api.reads != reads {
			t.Errorf("--ci-retry all read the attempts API")
		}
		cmdtest.Contains(t, "stderr", r.Stderr, "Started run ")
	})
}

// Not a retry, or a start that names no commit: nothing is looked up.
func TestCIRetryOnlyForARetryNamingACommit(t *testing.T) {
	e := cmdtest.New(t)
	api, srv := newAttemptsAPI(t)
	ciAttempt(e, api, srv, 1)
	e.Run(startArgs(sandbox.PlanPassing, "--wait")...).Expect(t, 0)
	ciAttempt(e, api, srv, 2)
	e.Run("run", "start", "--plan", sandbox.PlanPassing).Expect(t, 0)
	if n := e.Requests(postRun); n != 2 {
		t.Errorf("%d starts", n)
	}
	if api.reads != 0 {
		t.Errorf("the attempts API was read %d times", api.reads)
	}
	r := e.Run(startArgs(sandbox.PlanPassing, "--ci-retry", "some")...).Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, `invalid --ci-retry "some": valid values are failed, all`)
}

// With --retry-failed the first attempt left a chain (the run, the rerun
// of its failures): the retry takes up the chain as one.
func TestCIRetryTakesUpARetryFailedChain(t *testing.T) {
	t.Run("passed on its rerun: reused, flaky kept", func(t *testing.T) {
		e := cmdtest.New(t)
		api, srv := newAttemptsAPI(t)
		ciAttempt(e, api, srv, 1)
		first := e.Run(startArgs(sandbox.PlanFlaky, "--wait", "--retry-failed", "1")...).Expect(t, 0)
		_, after, _ := strings.Cut(first.Stderr, "Retry 1 of 1: rerunning the 2 failed test cases of run ")
		rerunID := strings.TrimSuffix(strings.Fields(after)[3], ":") // "ID as run RERUN: URL"
		e.Clock.Advance(time.Minute)
		ciAttempt(e, api, srv, 2)
		junit := e.Dir + "/junit.xml"
		r := e.Run(startArgs(sandbox.PlanFlaky, "--wait", "--junit", junit)...).Expect(t, 0)
		if e.Requests(postRun) != 1 || e.Requests("POST /v1/run/{shortId}") != 1 {
			t.Errorf("%d starts and %d reruns, want the first attempt's 1 and 1", e.Requests(postRun), e.Requests("POST /v1/run/{shortId}"))
		}
		cmdtest.Contains(t, "stderr", r.Stderr, "passed in run "+rerunID+", started by attempt 1: not run again",
			"passed on a retry made by an earlier attempt of the CI job")
		flaky := 0
		for _, c := range cmdtest.ReadJUnitFile(t, junit).Suites[0].Cases {
			flaky += len(c.FlakyFailures)
		}
		if flaky != 2 {
			t.Errorf("%d flakyFailure elements, want 2", flaky)
		}
	})
	t.Run("failed on its rerun: the rerun's failures rerun, --retry-failed counted afresh", func(t *testing.T) {
		e := cmdtest.New(t)
		api, srv := newAttemptsAPI(t)
		ciAttempt(e, api, srv, 1)
		e.Run(startArgs(sandbox.PlanFailing, "--wait", "--retry-failed", "1")...).Expect(t, 1)
		if n := e.Requests("POST /v1/run/{shortId}"); n != 1 {
			t.Fatalf("%d reruns in attempt 1", n)
		}
		e.Clock.Advance(time.Minute)
		ciAttempt(e, api, srv, 2)
		r := e.Run(startArgs(sandbox.PlanFailing, "--wait", "--retry-failed", "1")...).Expect(t, 1)
		// The CI retry's rerun, then --retry-failed's own one.
		if n := e.Requests("POST /v1/run/{shortId}"); n != 3 {
			t.Errorf("%d reruns in all, want 1 + the CI retry's + 1 of --retry-failed 1", n)
		}
		if n := e.Requests(postRun); n != 1 {
			t.Errorf("%d starts", n)
		}
		cmdtest.Contains(t, "stderr", r.Stderr, "Rerunning the ", "Retry 1 of 1: rerunning")
	})
}

// GitLab says nothing of a retry: a job is one when its pipeline already
// holds a run of the plan and commit; the first job says nothing of it.
func TestCIRetryGitLab(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("GITLAB_CI", "true")
	e.Setenv("CI_PIPELINE_CREATED_AT", e.Clock.Now().UTC().Format(time.RFC3339))
	e.Clock.Advance(time.Minute)
	dotenv := e.Dir + "/testctl.env"
	r := e.Run(startArgs(sandbox.PlanPassing, "--wait", "-q", "--dotenv", dotenv)...).Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	if strings.Contains(r.Stderr, "anew") || strings.Contains(r.Stderr, "attempt") {
		t.Errorf("the first job talks of a retry:\n%s", r.Stderr)
	}
	if got := cmdtest.ReadDotenv(t, dotenv)["TESTCTL_CI_RETRY"]; got != "new:"+id {
		t.Errorf("TESTCTL_CI_RETRY %q", got)
	}
	e.Clock.Advance(time.Minute)
	r = e.Run(startArgs(sandbox.PlanPassing, "--wait", "--dotenv", dotenv)...).Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "passed in run "+id+", started by an earlier attempt: not run again")
	if n := e.Requests(postRun); n != 1 {
		t.Errorf("%d starts", n)
	}
	if got := cmdtest.ReadDotenv(t, dotenv)["TESTCTL_CI_RETRY"]; got != "reused:"+id {
		t.Errorf("TESTCTL_CI_RETRY %q", got)
	}
	// Another job of the pipeline tests the same plan and commit against
	// another URL, which the run list does not show: it is no retry.
	r = e.Run(startArgs(sandbox.PlanPassing, "--wait", "--app", "app_sandbox-web,url=https://prod.example.com")...).Expect(t, 0)
	if n := e.Requests(postRun); n != 2 || strings.Contains(r.Stderr, "not run again") {
		t.Errorf("a job with a URL override took up another job's run (%d starts):\n%s", n, r.Stderr)
	}
}

// A run of test case ids is known by its test count; several plans are
// each taken up on their own.
func TestCIRetryTestCasesAndSeveralPlans(t *testing.T) {
	e := cmdtest.New(t)
	api, srv := newAttemptsAPI(t)
	ciAttempt(e, api, srv, 1)
	two := []string{"run", "start", "--test-case", sandbox.TestCaseLogin, "--test-case", sandbox.TestCaseSearch}
	id := strings.TrimSpace(e.Run(append(append(two, commit...), "--wait", "-q")...).Expect(t, 0).Stdout)
	e.Run(startArgs(sandbox.PlanPassing, "--wait")...).Expect(t, 0)
	e.Clock.Advance(time.Minute)
	ciAttempt(e, api, srv, 2)
	r := e.Run(append(append(two, commit...), "--wait", "-q")...).Expect(t, 0)
	if strings.TrimSpace(r.Stdout) != id || e.Requests(postRun) != 2 {
		t.Errorf("the same two test cases: stdout %q, %d starts", r.Stdout, e.Requests(postRun))
	}
	one := append(append([]string{"run", "start", "--test-case", sandbox.TestCaseLogin}, commit...), "--wait")
	r = e.Run(one...).Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "no run of these test cases on this commit since attempt 1 began: starting anew")
	// Two plans: the one the first attempt ran is reused, the other new.
	r = e.Run(startArgs(sandbox.PlanPassing, "--plan", sandbox.PlanSkipped, "--wait")...).Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "not run again", "no run of "+sandbox.PlanSkipped+" on this commit since attempt 1 began: starting anew")
}
