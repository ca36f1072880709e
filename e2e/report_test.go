package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// ended starts a run of plan and lets it end on the sandbox's clock.
func ended(t *testing.T, e *cmdtest.Env, plan string) string {
	t.Helper()
	r := e.Run("run", "start", "--plan", plan, "-q").Expect(t, 0)
	e.Clock.Advance(2 * time.Minute)
	return strings.TrimSpace(r.Stdout)
}

// The failure story of a run that ended: each failed test case numbered,
// with its evaluation and evidence lined up in time, the commands for
// more, and the reports, with run wait's exit code.
func TestReportTellsWhyARunFailed(t *testing.T) {
	e := cmdtest.New(t)
	id := ended(t, e, sandbox.PlanFailing)
	junit, html := e.Dir+"/junit.xml", e.Dir+"/report.html"
	summary := e.WriteFile("gh/summary.md", "")
	e.GitHubActions()
	e.Setenv("GITHUB_STEP_SUMMARY", summary)
	r := e.Run("run", "report", id, "--junit", junit, "--html", html).Expect(t, 1)

	cmdtest.Contains(t, "stderr", r.Stderr,
		"1. ✗ Apply an expired coupon FAILED ["+id+"-2]",
		"2. ✗ Pay with a declined card FAILED ["+id+"-3]",
		"plan Checkout regression (failing) · run "+id,
		"POST /api/payments 502",
		"console error Uncaught TypeError",
		"issue CRITICAL: Payment step goes blank on a declined card",
		"more: testctl logs "+id+"-3 --kind network --status errors",
		"testctl run get "+id+" --issues")
	if strings.Index(r.Stderr, "1. ✗") > strings.Index(r.Stderr, "Receive the order confirmation email ["+id) {
		t.Error("the skipped test case is listed before the failures")
	}
	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	cmdtest.Contains(t, "JUnit", string(data), "<system-out>", "POST /api/payments 502", "testctl logs "+id+"-3 --kind console")
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), `<script type="application/json"`) {
		t.Errorf("HTML report: %v", err)
	}
	md, _ := os.ReadFile(summary)
	cmdtest.Contains(t, "step summary", string(md), "## ❌ testctl: failed (exit 1)", "<details><summary><b>FAILED</b> Pay with a declined card")
	// The annotation names the plan and carries the first line of evidence.
	cmdtest.Contains(t, "annotations", r.Stderr, "::error title=testctl run "+id+" (Checkout regression (failing))%3A Pay with a declined card::FAILED")
	// Network and console for each failed browser test.
	wantReads(t, e, 2*2, 1, "the logs: 2 for each of the 2 failed test cases; the run once, with its issues")
}

// An API test's evidence is its failed API calls: read when its network
// log, which a test without a browser does not have, is empty.
func TestReportOfAnAPITestShowsItsCalls(t *testing.T) {
	e := cmdtest.New(t)
	id := ended(t, e, sandbox.PlanFlaky)
	r := e.Run("run", "report", id).Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "Health endpoint answers 200", "API GET", "503", "--kind api-calls")
}

// A run that passed fetches no evidence at all.
func TestReportOfAPassingRunFetchesNoEvidence(t *testing.T) {
	e := cmdtest.New(t)
	id := ended(t, e, sandbox.PlanPassing)
	e.Run("run", "report", id).Expect(t, 0)
	wantReads(t, e, 0, 1, "a run that passed")
}

// wantReads checks how many times the report read the logs and the run.
func wantReads(t *testing.T, e *cmdtest.Env, logs, runs int, why string) {
	t.Helper()
	if n := e.Requests(getLogs); n != logs {
		t.Errorf("%d log reads, want %d (%s)", n, logs, why)
	}
	if n := e.Requests(cmdtest.GetRun); n != runs {
		t.Errorf("%d run reads, want %d (%s)", n, runs, why)
	}
}

// Evidence that cannot be read is named so, and never changes the exit
// code.
func TestEvidenceThatFailsKeepsTheExitCode(t *testing.T) {
	e := cmdtest.New(t)
	id := ended(t, e, sandbox.PlanFailing)
	target, _ := url.Parse(e.Getenv("TESTCTL_BASE_URL"))
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/v1/run-test-case/") || r.URL.Query().Get("issues") == "true" {
			http.Error(w, `{"message":"down"}`, http.StatusInternalServerError)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "report", id).Expect(t, 1)
	// The run is read again without its issues, which are then named
	// unavailable.
	cmdtest.Contains(t, "stderr", r.Stderr, "console: not available: HTTP 500", "issues: not available: HTTP 500", "Pay with a declined card")
}

// A run still going is reported as it stands: exit 7 and the command that
// waits for it.
func TestReportOfARunStillGoing(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", sandbox.PlanSlow, "-q").Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	r = e.Run("run", "report", id).Expect(t, 7)
	cmdtest.Contains(t, "stderr", r.Stderr, "run wait "+id)
}

func TestReportFlags(t *testing.T) {
	e := cmdtest.New(t)
	e.Run("run", "report").Expect(t, 2)
	e.Run("run", "report", "r1a2b3", "--evidence", "-1").Expect(t, 2)
	e.Run("run", "report", "r1a2b3", "--html", e.Dir+"/missing/r.html").Expect(t, 2)
	e.Run("run", "report", "r1a2b3", "--interval", "5s").Expect(t, 2)
	if n := e.Requests("GET /v1/run/{shortId}"); n != 0 {
		t.Errorf("%d requests sent for bad input", n)
	}
}

// --evidence N reads N test cases and says how many more did not pass;
// --evidence 0 reads none and says nothing of it.
func TestReportEvidenceLimit(t *testing.T) {
	e := cmdtest.New(t)
	id := ended(t, e, sandbox.PlanFailing)
	r := e.Run("run", "report", id, "--evidence", "1").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "(1 more test case did not pass; its evidence was not gathered: raise --evidence)")
	wantReads(t, e, 2, 1, "the network and console logs of the first failed test case; the run with its issues")
	r = e.Run("run", "report", id, "--evidence", "0").Expect(t, 1)
	if strings.Contains(r.Stderr, "evidence was not gathered") {
		t.Errorf("--evidence 0 still speaks of evidence:\n%s", r.Stderr)
	}
	wantReads(t, e, 2, 2, "no more log reads, one more run read")
}

// A run that does not exist is named with the service's answer, as run
// wait names it, before the summary that points to it: exit 5.
func TestReportOfAnUnknownRunSaysWhy(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "report", "r0a1b2").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "error: run r0a1b2: GET /v1/run/r0a1b2", "404 Not Found", "Run r0a1b2: no verdict (see the error above)")
	if strings.Index(r.Stderr, "error: run r0a1b2") > strings.Index(r.Stderr, "no verdict") {
		t.Errorf("the error comes after the summary that points to it:\n%s", r.Stderr)
	}
}

// A 404 for a run says what was given instead and the command it was
// likely meant for: a plan's id gets its runs, a run test case's id its
// run, a run's id where to look.
func TestUnknownRunHintFitsWhatWasGiven(t *testing.T) {
	e := cmdtest.New(t)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "get", sandbox.PlanPassing}, []string{"pln-passing_sandbox is a test plan's id, not a run's", "`testctl run list --plan pln-passing_sandbox`"}},
		{[]string{"run", "get", "r2an8m-2"}, []string{"r2an8m-2 is a test case of run r2an8m", "`testctl run get r2an8m`", "`testctl logs r2an8m-2 --kind network`"}},
		{[]string{"run", "report", "r0a1b2"}, []string{"No run r0a1b2 in this project", "`testctl run list`"}},
	} {
		r := e.Run(c.args...).Expect(t, 5)
		cmdtest.Contains(t, "stderr", r.Stderr, append([]string{"404 Not Found"}, c.want...)...)
		if strings.Contains(r.Stderr, "Run short ids look like") {
			t.Errorf("%v: the generic hint:\n%s", c.args, r.Stderr)
		}
	}
}
