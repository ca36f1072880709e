package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
)

// startLost runs `run start` of the passing plan with the faults given to
// its POSTs, and returns the result and the runs the sandbox created.
func startLost(t *testing.T, e *cmdtest.Env, faults ...cmdtest.WriteFault) (cmdtest.Result, int) {
	t.Helper()
	before := e.Sandbox.Server.Stats().RunsStarted
	e.FaultWrites(postRun, faults...)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--branch", "main", "--commit", "abc123", "-q", "--debug")
	return r, e.Sandbox.Server.Stats().RunsStarted - before
}

func TestLostStartAnswerAdoptsTheRun(t *testing.T) {
	e := cmdtest.New(t)
	r, created := startLost(t, e, cmdtest.LoseAnswer)
	r.Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer to POST /v1/run may have been lost (POST /v1/run: HTTP 502",
		"the answer was lost, but run "+id+" was created: using it", "Started run "+id, "* reconcile:")
	if created != 1 || e.Requests(postRun) != 1 {
		t.Errorf("%d runs created by %d POSTs, want 1 by 1", created, e.Requests(postRun))
	}
	// The adopted run is the one waited on.
	r = e.Run("run", "wait", id).Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, id)
}

func TestLostStartIsSentOnceMoreAfterTheDelay(t *testing.T) {
	e := cmdtest.New(t)
	t0 := e.Clock.Now()
	r, created := startLost(t, e, cmdtest.LoseRequest)
	r.Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "no run appeared within 30s: sending POST /v1/run once more",
		"Started run "+strings.TrimSpace(r.Stdout))
	if created != 1 {
		t.Errorf("%d runs created, want 1", created)
	}
	if waited := e.Clock.Now().Sub(t0); waited < 30*time.Second {
		t.Errorf("sent again after %s, within the visibility delay", waited)
	}
	if strings.Contains(r.Stderr, "was created: using it") {
		t.Errorf("adopted a run:\n%s", r.Stderr)
	}
}

func TestLostStartWithSeveralCandidatesExits6(t *testing.T) {
	e := cmdtest.New(t)
	r, created := startLost(t, e, cmdtest.DeliverTwice)
	r.Expect(t, 6)
	if created != 2 {
		t.Fatalf("%d runs created, want the two of the scenario", created)
	}
	ids := e.Run("run", "list", "--plan", "pln-passing_sandbox", "--limit", "2", "--jq", ".runs[].shortId").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, strings.Fields(ids.Stdout)...)
	cmdtest.Contains(t, "stderr", r.Stderr, "2 runs created since could be the one", "none was adopted")
	if r.Stdout != "" {
		t.Errorf("stdout %q, want nothing", r.Stdout)
	}
}

// A run of the same plan, trigger, branch and commit that existed before
// the request is never taken for the one it started.
func TestLostStartNeverAdoptsAnOlderRun(t *testing.T) {
	e := cmdtest.New(t)
	old, _ := startLost(t, e)
	old.Expect(t, 0)
	r, created := startLost(t, e, cmdtest.LoseRequest)
	r.Expect(t, 0)
	if id := strings.TrimSpace(r.Stdout); id == strings.TrimSpace(old.Stdout) || created != 1 {
		t.Errorf("started %q (the older run is %q), %d created\n%s", id, old.Stdout, created, r.Stderr)
	}
}

// The hidden TESTCTL_VISIBILITY_DELAY shortens the delay, for tests and
// rehearsals against a sandbox that lists a new run at once.
func TestVisibilityDelaySetting(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_VISIBILITY_DELAY", "3s")
	t0 := e.Clock.Now()
	r, _ := startLost(t, e, cmdtest.LoseRequest)
	r.Expect(t, 0)
	if waited := e.Clock.Now().Sub(t0); waited < 3*time.Second || waited >= 30*time.Second {
		t.Errorf("sent again after %s, want the 3s delay", waited)
	}
	e.Setenv("TESTCTL_VISIBILITY_DELAY", "soon")
	r, created := startLost(t, e)
	r.Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "TESTCTL_VISIBILITY_DELAY")
	if created != 0 {
		t.Errorf("%d runs created with a bad setting", created)
	}
}

// An answer about the request itself (here a 404) says nothing was
// created: no looking, no second POST.
func TestRefusedStartIsNotReconciled(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", "pln-nonexistent_sandbox")
	r.Expect(t, 5)
	if n := e.Requests(postRun); n != 1 {
		t.Errorf("%d POSTs", n)
	}
	if strings.Contains(r.Stderr, "looking for") {
		t.Errorf("a refused start was reconciled:\n%s", r.Stderr)
	}
}

// Plans started at once reconcile each on its own: a lost answer per plan
// adopts that plan's run, never another's.
func TestLostAnswersOfSeveralPlansAdoptEachItsRun(t *testing.T) {
	e := cmdtest.New(t)
	e.FaultWrites(postRun, cmdtest.LoseAnswer, cmdtest.LoseAnswer, cmdtest.LoseAnswer)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--plan", "pln-failing_sandbox", "--plan", "pln-skipped_sandbox", "-q").Expect(t, 0)
	ids := strings.Fields(r.Stdout)
	if n := e.Sandbox.Server.Stats().RunsStarted; n != 3 || len(ids) != 3 {
		t.Fatalf("%d runs created, printed %q\n%s", n, r.Stdout, r.Stderr)
	}
	for _, id := range ids {
		cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but run "+id+" was created: using it")
	}
	for _, plan := range []string{"pln-passing_sandbox", "pln-failing_sandbox", "pln-skipped_sandbox"} {
		got := e.Run("run", "list", "--plan", plan, "--limit", "1", "--jq", ".runs[].shortId").Expect(t, 0)
		cmdtest.Contains(t, "stdout", r.Stdout, strings.TrimSpace(got.Stdout))
	}
}

// A 500 answer to the POST may mean the run was created: it is sent again
// only once the run list has shown nothing new for the visibility delay,
// and never a third time.
func TestStartAfterA500IsSentOnceMoreAtMost(t *testing.T) {
	var posts, lists atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/v1/run" {
			lists.Add(1)
			_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":100,"offset":0}`))
			return
		}
		posts.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"message":"boom"}`))
	}))
	defer srv.Close()
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox").Expect(t, 6)
	cmdtest.Contains(t, "stderr", r.Stderr, "boom", "sending POST /v1/run once more", "failed twice and no run appeared within 30s")
	if n := posts.Load(); n != 2 {
		t.Errorf("%d POSTs reached the server, want 2", n)
	}
	if n := lists.Load(); n < 3 {
		t.Errorf("the run list was read %d times, want before the POST and after each lost answer", n)
	}
}
