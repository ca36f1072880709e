package e2e_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// listedRun is a run of the run list on a branch, of plan pln_checkout.
func listedRun(id, status, result, branch string) string {
	return `{"shortId":"` + id + `","status":"` + status + `","result":"` + result + `","branch":"` + branch +
		`","testPlanShortId":"pln_checkout","createdAt":"2026-11-20T09:00:00Z","url":"https://app.invalid/` + id + `"}`
}

// Two test cases named "Login" fail today; the baseline run failed one
// "Login": one is known, the other new, and --fail-on new fails the gate.
func TestBaselineMatchesSameNamesOneToOne(t *testing.T) {
	e := cmdtest.New(t)
	srv := service(t, map[string]func(http.ResponseWriter, *http.Request){
		"GET /v1/run/r1": doc(runDoc("r1", "COMPLETED", "FAILED",
			caseDoc("r1-1", "Login", "COMPLETED", "FAILED"), caseDoc("r1-2", "Login", "COMPLETED", "FAILED"))),
		"GET /v1/run": doc(`{"runs":[` + listedRun("b1", "COMPLETED", "FAILED", "main") + `],"total":1}`),
		"GET /v1/run/b1": doc(runDoc("b1", "COMPLETED", "FAILED",
			caseDoc("b1-1", "Login", "COMPLETED", "FAILED"), caseDoc("b1-2", "Login", "COMPLETED", "PASSED"))),
		"logs": doc(`{"totalMatched":0,"returned":0,"hasMore":false}`),
	})
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "wait", "r1", "--baseline", "main", "--fail-on", "new", "--interval", "1s").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "1 new failure · 1 known")
}

// The run list says the baseline run is COMPLETED, its detail says RUNNING
// with every test case RUNNING: it is no baseline; the next candidate,
// whose detail is COMPLETED, is, and today's failure passed there: new.
func TestBaselineIsARunWhoseDetailIsCompleted(t *testing.T) {
	e := cmdtest.New(t)
	srv := service(t, map[string]func(http.ResponseWriter, *http.Request){
		"GET /v1/run/r1": doc(runDoc("r1", "COMPLETED", "FAILED", caseDoc("r1-1", "Login", "COMPLETED", "FAILED"))),
		"GET /v1/run": doc(`{"runs":[` + listedRun("b2", "COMPLETED", "FAILED", "main") + `,` +
			listedRun("b1", "COMPLETED", "PASSED", "main") + `],"total":2}`),
		"GET /v1/run/b2": doc(runDoc("b2", "RUNNING", "", caseDoc("b2-1", "Login", "RUNNING", ""))),
		"GET /v1/run/b1": doc(runDoc("b1", "COMPLETED", "PASSED", caseDoc("b1-1", "Login", "COMPLETED", "PASSED"))),
		"logs":           doc(`{"totalMatched":0,"returned":0,"hasMore":false}`),
	})
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "wait", "r1", "--baseline", "main", "--fail-on", "new", "--interval", "1s").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "against run b1 on main", "1 new failure")
}

// Every candidate unfinished in its detail: at most 5 detail reads, then no
// baseline, every failure new, and the reports say why.
func TestBaselineGivesUpAfterFiveUnfinishedDetails(t *testing.T) {
	e := cmdtest.New(t)
	var reads atomic.Int32
	var list []string
	answers := map[string]func(http.ResponseWriter, *http.Request){
		"GET /v1/run/r1": doc(runDoc("r1", "COMPLETED", "FAILED", caseDoc("r1-1", "Login", "COMPLETED", "FAILED"))),
		"logs":           doc(`{"totalMatched":0,"returned":0,"hasMore":false}`),
	}
	for _, id := range []string{"b7", "b6", "b5", "b4", "b3", "b2", "b1"} {
		list = append(list, listedRun(id, "COMPLETED", "FAILED", "main"))
		answers["GET /v1/run/"+id] = func(w http.ResponseWriter, r *http.Request) {
			reads.Add(1)
			doc(runDoc(id, "RUNNING", "", caseDoc(id+"-1", "Login", "RUNNING", "")))(w, r)
		}
	}
	answers["GET /v1/run"] = doc(`{"runs":[` + strings.Join(list, ",") + `],"total":7}`)
	srv := service(t, answers)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "wait", "r1", "--baseline", "main", "--fail-on", "new", "--interval", "1s").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "could not be found", "every failure is new")
	if n := reads.Load(); n != 5 {
		t.Errorf("%d baseline details read, want at most 5", n)
	}
}

// runDocWithoutPlan is a run detail that does not name its plan.
func runDocWithoutPlan(id, status, result string, cases ...string) string {
	return strings.Replace(runDoc(id, status, result, cases...), `"testPlan":{"shortId":"pln_checkout","name":"Checkout"},`, "", 1)
}

const quarantineOfCheckout = `- name: Login
  plan: pln_checkout
  owner: "@alice"
  reason: flaky login page
  until: 2099-12-31
`

// run wait ID of a run whose detail does not name its plan, which the run
// list does: a quarantine entry with plan: matches it, as the baseline
// does, and is not called unmatched.
func TestQuarantinePlanFoundAsTheBaselineFindsIt(t *testing.T) {
	e := cmdtest.New(t)
	srv := service(t, map[string]func(http.ResponseWriter, *http.Request){
		"GET /v1/run/r1": doc(runDocWithoutPlan("r1", "COMPLETED", "FAILED", caseDoc("r1-1", "Login", "COMPLETED", "FAILED"))),
		"GET /v1/run":    doc(`{"runs":[` + listedRun("r1", "COMPLETED", "FAILED", "feature") + `],"total":1}`),
		"logs":           doc(`{"totalMatched":0,"returned":0,"hasMore":false}`),
	})
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	q := e.WriteFile("quarantine.yaml", quarantineOfCheckout)
	r := e.Run("run", "wait", "r1", "--quarantine", q, "--interval", "1s").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "1 quarantined")
	if strings.Contains(r.Stderr, "matches no test case") {
		t.Errorf("the entry is called unmatched:\n%s", r.Stderr)
	}
}

// When nothing says the run's plan, an entry with plan: is neither applied
// nor called unmatched, and a warning names the run.
func TestQuarantinePlanUnknownIsNeitherAppliedNorStale(t *testing.T) {
	e := cmdtest.New(t)
	srv := service(t, map[string]func(http.ResponseWriter, *http.Request){
		"GET /v1/run/r1": doc(runDocWithoutPlan("r1", "COMPLETED", "FAILED", caseDoc("r1-1", "Login", "COMPLETED", "FAILED"))),
		"GET /v1/run":    doc(`{"runs":[],"total":0}`),
		"logs":           doc(`{"totalMatched":0,"returned":0,"hasMore":false}`),
	})
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	q := e.WriteFile("quarantine.yaml", quarantineOfCheckout)
	r := e.Run("run", "wait", "r1", "--quarantine", q, "--interval", "1s").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, `the quarantine entry (line 1) for "Login" of plan pln_checkout was not applied to run r1`)
	if strings.Contains(r.Stderr, "matches no test case") {
		t.Errorf("the entry is called unmatched:\n%s", r.Stderr)
	}
}
