package e2e_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// runDoc is a run detail as the service sends it.
func runDoc(id, status, result string, cases ...string) string {
	res := "null"
	if result != "" {
		res = `"` + result + `"`
	}
	return `{"id":"run_` + id + `","shortId":"` + id + `","status":"` + status + `","result":` + res +
		`,"testPlan":{"shortId":"pln_checkout","name":"Checkout"},"runTestCases":[` + strings.Join(cases, ",") + `]}`
}

// caseDoc is one run test case.
func caseDoc(id, name, status, result string) string {
	return `{"id":"c` + id + `","shortId":"` + id + `","name":"` + name + `","status":"` + status + `","result":"` + result +
		`","resultTitle":"` + name + ` ` + strings.ToLower(result) + `"}`
}

// service serves fixed answers by "METHOD path", and 404 for the rest.
func service(t *testing.T, answers map[string]func(w http.ResponseWriter, r *http.Request)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h, ok := answers[r.Method+" "+r.URL.Path]; ok {
			h(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/logs") {
			if h, ok := answers["logs"]; ok {
				h(w, r)
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"not found"}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func doc(body string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}
}

// A rerun that ends FAILED, or with a result testctl does not know, fails
// the gate, whatever its test cases say: the last attempt's own result
// speaks for what it ran.
func TestRetryNeverHidesAFailedLastAttempt(t *testing.T) {
	for _, last := range []string{"FAILED", "BLOCKED"} {
		t.Run(last, func(t *testing.T) {
			e := cmdtest.New(t)
			srv := service(t, map[string]func(http.ResponseWriter, *http.Request){
				"GET /v1/run/r1":  doc(runDoc("r1", "COMPLETED", "FAILED", caseDoc("r1-1", "Checkout", "COMPLETED", "FAILED"))),
				"POST /v1/run/r1": doc(`{"success":true,"run":{"id":"run_r2","shortId":"r2","url":"https://app.invalid/r2","testCount":1}}`),
				"GET /v1/run/r2":  doc(runDoc("r2", "COMPLETED", last, caseDoc("r2-1", "Checkout", "COMPLETED", "PASSED"))),
				"GET /v1/run":     doc(`{"runs":[],"total":0}`),
				"logs":            doc(`{"totalMatched":0,"returned":0,"hasMore":false}`),
			})
			e.Setenv("TESTCTL_BASE_URL", srv.URL)
			r := e.Run("run", "wait", "r1", "--retry-failed", "1", "--interval", "1s")
			if r.Code != 1 {
				t.Fatalf("exit %d, want 1 (the last attempt ended %s)\n%s", r.Code, last, r.Stderr)
			}
			if strings.Contains(r.Stderr, "COMPLETED · PASSED") || strings.Contains(r.Stderr, "✓ Run") {
				t.Errorf("the summary says the run passed:\n%s", r.Stderr)
			}
			cmdtest.Contains(t, "stderr", r.Stderr, "COMPLETED · "+last)
		})
	}
}

// An error that ends the whole wait (here a redirect to another host) still
// writes every report asked for, with each run's last known state.
func TestLoopErrorStillWritesEveryReport(t *testing.T) {
	e := cmdtest.New(t)
	var r2polls atomic.Int32
	srv := service(t, map[string]func(http.ResponseWriter, *http.Request){
		"GET /v1/run/r1": doc(runDoc("r1", "COMPLETED", "FAILED", caseDoc("r1-1", "Checkout", "COMPLETED", "FAILED"))),
		"GET /v1/run/r2": func(w http.ResponseWriter, r *http.Request) {
			if r2polls.Add(1) == 1 {
				doc(runDoc("r2", "RUNNING", "", caseDoc("r2-1", "Login", "RUNNING", "")))(w, r)
				return
			}
			http.Redirect(w, r, "https://elsewhere.invalid/v1/run/r2", http.StatusFound)
		},
		"GET /v1/run": doc(`{"runs":[],"total":0}`),
		"logs":        doc(`{"totalMatched":0,"returned":0,"hasMore":false}`),
	})
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	out := e.GitHubActions()
	junit := filepath.Join(e.Dir, "junit.xml")
	r := e.Run("run", "wait", "r1", "r2", "--junit", junit, "--interval", "1s")
	if r.Code != 6 {
		t.Fatalf("exit %d, want 6\n%s", r.Code, r.Stderr)
	}
	doc := cmdtest.ReadJUnitFile(t, junit)
	if len(doc.Suites) != 2 || doc.Failures == 0 || doc.Errors == 0 {
		t.Errorf("JUnit does not carry r1's failure and r2's error: %+v", doc)
	}
	summary, err := os.ReadFile(e.Getenv("GITHUB_STEP_SUMMARY"))
	if err != nil || !strings.Contains(string(summary), "r1") || !strings.Contains(string(summary), "r2") {
		t.Errorf("step summary (%v):\n%s", err, summary)
	}
	outputs := cmdtest.ReadGitHubOutput(t, out)
	var runs []map[string]any
	if err := json.Unmarshal([]byte(outputs["runs_json"]), &runs); err != nil || len(runs) != 2 {
		t.Errorf("runs_json %q (%v)", outputs["runs_json"], err)
	}
}

// hold blocks until the request is abandoned or the test ends, and counts.
type hold struct {
	n       atomic.Int32
	release chan struct{}
	once    sync.Once
}

func newHold(t *testing.T) *hold {
	s := &hold{release: make(chan struct{})}
	t.Cleanup(func() { s.once.Do(func() { close(s.release) }) })
	return s
}

func (s *hold) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.n.Add(1)
	select {
	case <-r.Context().Done():
	case <-s.release:
	}
}

// A cancelled GitHub job: SIGINT while the run list and the logs stall.
// The reports come within about a second of the signal, with what is
// known, and the evidence, which nothing needs once the wait is cut off,
// is not asked for after it: the logs of the failed test case, read as it
// ended (before the signal), stall and are called off with the wait.
func TestSignalWritesTheReportsAtOnce(t *testing.T) {
	e := cmdtest.New(t)
	list, logs := newHold(t), newHold(t)
	srv := service(t, map[string]func(http.ResponseWriter, *http.Request){
		"GET /v1/run/r1": doc(runDoc("r1", "RUNNING", "", caseDoc("r1-1", "Checkout", "COMPLETED", "FAILED"),
			caseDoc("r1-2", "Login", "RUNNING", ""))),
		"GET /v1/run": list.ServeHTTP,
		"logs":        logs.ServeHTTP,
	})
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	out := e.GitHubActions()
	exitFile := filepath.Join(e.Dir, "exit-code")
	e.Setenv("TESTCTL_EXIT_CODE_FILE", exitFile)
	junit := filepath.Join(e.Dir, "junit.xml")
	ctx := cmdtest.CancelAt(e.Clock, e.Clock.Now().Add(20*time.Second))
	start := time.Now()
	r := e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "wait", "r1", "--junit", junit)
	took := time.Since(start)
	if r.Code != 130 {
		t.Fatalf("exit %d, want 130\n%s", r.Code, r.Stderr)
	}
	// Before, up to 10 s of run list and 8 s of evidence came first.
	if took > 5*time.Second {
		t.Errorf("the reports took %s after the signal", took)
	}
	if n := logs.n.Load(); n > 2 {
		t.Errorf("%d evidence requests: more than the two read as the failed test case ended, before the signal", n)
	}
	doc := cmdtest.ReadJUnitFile(t, junit)
	if doc.Failures != 1 {
		t.Errorf("JUnit: %+v", doc)
	}
	if got := cmdtest.ReadGitHubOutput(t, out); got["run_short_id"] != "r1" {
		t.Errorf("outputs %q", got)
	}
	if b, err := os.ReadFile(exitFile); err != nil || strings.TrimSpace(string(b)) != "130" {
		t.Errorf("exit code file: %q (%v)", b, err)
	}
}

// SIGTERM while run report gathers evidence from a stalled service ends
// the gathering within about a second: 143, the reports written.
func TestSignalDuringEvidenceEndsIt(t *testing.T) {
	e := cmdtest.New(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	logs := newHold(t)
	srv := service(t, map[string]func(http.ResponseWriter, *http.Request){
		"GET /v1/run/r1": doc(runDoc("r1", "COMPLETED", "FAILED", caseDoc("r1-1", "Checkout", "COMPLETED", "FAILED"))),
		"GET /v1/run":    doc(`{"runs":[],"total":0}`),
		"logs": func(w http.ResponseWriter, r *http.Request) {
			cancel(cmdutil.ErrTerminated) // the job is cancelled while the evidence is read
			logs.ServeHTTP(w, r)
		},
	})
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	junit := filepath.Join(e.Dir, "junit.xml")
	start := time.Now()
	r := e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "report", "r1", "--junit", junit)
	took := time.Since(start)
	if r.Code != 143 {
		t.Fatalf("exit %d, want 143\n%s", r.Code, r.Stderr)
	}
	if took > 5*time.Second { // the evidence's own bound is 8 s
		t.Errorf("the report took %s after SIGTERM", took)
	}
	if doc := cmdtest.ReadJUnitFile(t, junit); doc.Failures != 1 {
		t.Errorf("JUnit: %+v", doc)
	}
}

// A start that fails for good under --wait still writes the reports asked
// for: the JUnit a CI dashboard reads says the plan never started.
func TestFailedStartWritesTheReports(t *testing.T) {
	e := cmdtest.New(t)
	e.GitHubActions()
	junit := filepath.Join(e.Dir, "junit.xml")
	r := e.Run("run", "start", "--plan", "pln-nope_sandbox", "--wait", "--junit", junit).Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "plan pln-nope_sandbox: not started: POST /v1/run: HTTP 404")
	doc := cmdtest.ReadJUnitFile(t, junit)
	if doc.Errors != 1 || len(doc.Suites) != 1 {
		t.Errorf("JUnit of a start that failed: %+v", doc)
	}
	if summary, err := os.ReadFile(e.Getenv("GITHUB_STEP_SUMMARY")); err != nil || !strings.Contains(string(summary), "1 not started") ||
		!strings.Contains(string(summary), `pln-nope\_sandbox: not started`) {
		t.Errorf("step summary (%v):\n%s", err, summary)
	}
}
