package e2e_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/sandbox"
)

// A first signal while POST /v1/run is in flight does not abort it: the
// run the service created is named in every report, with the command that
// resumes its wait, never called "not started".

const signalCommit = "0123456789abcdef0123456789abcdef01234567"

func startDuringSignal(t *testing.T, e *cmdtest.Env, ctx context.Context) cmdtest.Result {
	t.Helper()
	return e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "start", "--plan", sandbox.PlanPassing, "--branch", "feature",
		"--commit", signalCommit, "--wait")
}

func wantNoNotStarted(t *testing.T, e *cmdtest.Env, r cmdtest.Result) {
	t.Helper()
	if strings.Contains(r.Stderr, "not started") || strings.Contains(stepSummary(t, e), "not started") {
		t.Errorf("a start whose request reached the service is called not started:\n%s\n%s", r.Stderr, stepSummary(t, e))
	}
}

// The answer comes after the signal: the run is named, with its resume,
// and every report states 143, never the 130 of a cancelled context.
func TestSignalDuringStartAnswerAwaited(t *testing.T) {
	e := cmdtest.New(t)
	outputs := e.GitHubActions()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	e.Hook(func(r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/run" {
			cancel(cmdutil.ErrTerminated) // then the service answers
		}
	})
	r := startDuringSignal(t, e, ctx).Expect(t, 143)
	wantStated(t, e, outputs, r, "143", "terminated", false)
	if strings.Contains(r.Stderr, "130") || strings.Contains(stepSummary(t, e), "130") {
		t.Errorf("SIGTERM reported as 130:\n%s\n%s", r.Stderr, stepSummary(t, e))
	}
	id := cmdtest.ReadGitHubOutput(t, outputs)["run_short_id"]
	if id == "" {
		t.Fatalf("no run named in the outputs:\n%s", r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Started run "+id, "testctl run wait "+id)
	cmdtest.Contains(t, "step summary", stepSummary(t, e), id, "testctl run wait "+id)
	wantNoNotStarted(t, e, r)
	if n := e.Requests("POST /v1/run"); n != 1 {
		t.Errorf("%d POSTs, want 1", n)
	}
}

// The service creates the run but its answer never comes: within the
// bound the run list shows it, and it is named.
func TestSignalDuringStartAnswerLostRunFound(t *testing.T) {
	t.Parallel()
	e := cmdtest.New(t)
	outputs := e.GitHubActions()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	proxy(t, e, func(w http.ResponseWriter, r *http.Request, next http.Handler) bool {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/run" {
			return false
		}
		next.ServeHTTP(httptest.NewRecorder(), r.WithContext(context.WithoutCancel(r.Context()))) // created
		cancel(cmdutil.ErrTerminated)
		<-r.Context().Done() // the answer never comes
		return true
	})
	r := startDuringSignal(t, e, ctx).Expect(t, 143)
	id := cmdtest.ReadGitHubOutput(t, outputs)["run_short_id"]
	if id == "" {
		t.Fatalf("the run created is not named:\n%s", r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "was created", "testctl run wait "+id)
	wantNoNotStarted(t, e, r)
	if n := e.Requests("POST /v1/run"); n != 1 {
		t.Errorf("%d POSTs, want 1: a start is never sent again after a signal", n)
	}
}

// Neither the answer nor the run list: every report says a run may have
// been created, with the run list command that shows it.
func TestSignalDuringStartAnswerLostNothingListed(t *testing.T) {
	t.Parallel()
	e := cmdtest.New(t)
	e.GitHubActions()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	proxy(t, e, func(w http.ResponseWriter, r *http.Request, next http.Handler) bool {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/run" {
			// The body read, the server notices when the client gives up.
			_, _ = io.Copy(io.Discard, r.Body)
			cancel(cmdutil.ErrTerminated)
			<-r.Context().Done()
			return true
		}
		return false
	})
	r := startDuringSignal(t, e, ctx).Expect(t, 143)
	where := "testctl run list --plan " + sandbox.PlanPassing + " --branch feature --commit " + signalCommit
	cmdtest.Contains(t, "stderr", r.Stderr, "may have started a run", where)
	cmdtest.Contains(t, "step summary", stepSummary(t, e), "may have started a run", where)
	wantNoNotStarted(t, e, r)
	// The command it names shows the run, once the service lists it.
	if n := e.Requests("POST /v1/run"); n != 0 {
		t.Errorf("the held POST reached the sandbox %d times", n)
	}
}

// proxy puts a handler in front of the sandbox: serve answers a request
// itself (true) or leaves it to the sandbox (false).
func proxy(t *testing.T, e *cmdtest.Env, serve func(w http.ResponseWriter, r *http.Request, next http.Handler) bool) {
	t.Helper()
	next := e.Sandbox.Server
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !serve(w, r, next) {
			next.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
}
