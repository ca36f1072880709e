package wait_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// The sandbox's baseline plan has one new failure (the declined card, which
// passed on main) and one known (the coupon, which failed there too).
func baselineEnv(t *testing.T) (*cmdtest.Env, string) {
	e := cmdtest.New(t, cmdtest.WithSandbox(sandbox.Options{BaselineHistory: true}))
	return e, e.StartRun(t, sandbox.PlanBaseline)
}

const (
	card   = "Pay with a declined card"
	coupon = "Apply an expired coupon"
)

func TestBaselineClassesNewAndKnown(t *testing.T) {
	e, id := baselineEnv(t)
	r := e.Run("run", "wait", id, "--baseline", "main", "--evidence", "0").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "against run b", "on main", "failures: 1 new failure · 1 known",
		card+" FAILED", "· new", coupon+" FAILED", "· known")
	if strings.Index(r.Stderr, card+" FAILED") > strings.Index(r.Stderr, coupon+" FAILED") {
		t.Errorf("the new failure is listed first:\n%s", r.Stderr)
	}
	if n := e.Requests("GET /v1/run"); n == 0 {
		t.Error("the run list was not searched")
	}
}

func TestFailOnNew(t *testing.T) {
	e, id := baselineEnv(t)
	// The card is new: --fail-on new still fails.
	e.Run("run", "wait", id, "--baseline", "main", "--fail-on", "new", "--evidence", "0").Expect(t, 1)
	// Quarantined, the card fails the gate no more; the coupon is known.
	q := e.WriteFile("q.yaml", "- name: "+card+"\n  owner: \"@alice\"\n  reason: PSP sandbox down\n  until: 2099-12-31\n")
	r := e.Run("run", "wait", id, "--baseline", "main", "--fail-on", "new", "--quarantine", q, "--evidence", "0", "-o", "json").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "failures: 1 known · 1 quarantined", "quarantined until 2099-12-31 (owner @alice): PSP sandbox down")
	var doc struct {
		Testctl struct {
			BaselineRunShortID string `json:"baselineRunShortId"`
			Failures           []struct {
				Name, Class string
				FailsGate   bool
			}
		} `json:"testctl"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.Testctl.BaselineRunShortID, "b") || len(doc.Testctl.Failures) != 2 || doc.Testctl.Failures[0].Class != "known" {
		t.Errorf("-o json: %+v", doc.Testctl)
	}
	// --fail-on any: the known coupon fails the gate.
	e.Run("run", "wait", id, "--baseline", "main", "--quarantine", q, "--evidence", "0").Expect(t, 1)
	// An expired quarantine fails again, and says so.
	old := e.WriteFile("old.yaml", "- name: "+card+"\n  owner: bob\n  until: 2020-01-01\n")
	r = e.Run("run", "wait", id, "--baseline", "main", "--fail-on", "new", "--quarantine", old, "--evidence", "0").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "old.yaml:1: the quarantine of \""+card+"\" ended on 2020-01-01",
		"quarantine expired on 2020-01-01 (owner bob): it fails the gate again")
}

func TestNoBaselineRunIsSaidOnce(t *testing.T) {
	e, id := baselineEnv(t)
	id2 := e.StartRun(t, sandbox.PlanBaseline)
	r := e.Run("run", "wait", id, id2, "--baseline", "nosuch", "--fail-on", "new", "--evidence", "0").Expect(t, 1)
	if n := strings.Count(r.Stderr, "on nosuch to compare with: every failure is new"); n != 1 {
		t.Errorf("said %d times:\n%s", n, r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "failures: 2 new failures")
}

// Bad input: exit 2, nothing sent.
func TestBaselineBadInput(t *testing.T) {
	e, id := baselineEnv(t)
	bad := e.WriteFile("bad.yaml", "- name: x\n  owner: y\n  until: 2026-13-01\n")
	unknown := e.WriteFile("unknown.yaml", "- name: x\n  owner: y\n  until: 2026-12-01\n  expires: soon\n")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--fail-on", "all"}, `--fail-on "all": use new`},
		{[]string{"--quarantine", e.Dir + "/none.yaml"}, "none.yaml: no such file"},
		{[]string{"--quarantine", bad}, `bad.yaml:3: until "2026-13-01" is not a date`},
		{[]string{"--quarantine", unknown}, `unknown.yaml:4: unknown key "expires"`},
	} {
		before := e.Requests(cmdtest.GetRun) + e.Requests("GET /v1/run")
		r := e.Run(append([]string{"run", "wait", id}, c.args...)...).Expect(t, 2)
		cmdtest.Contains(t, "stderr", r.Stderr, c.says)
		if after := e.Requests(cmdtest.GetRun) + e.Requests("GET /v1/run"); after != before {
			t.Errorf("%v: %d requests sent", c.args, after-before)
		}
	}
}

func TestFailOnCompletes(t *testing.T) {
	e := cmdtest.New(t)
	for _, cmd := range [][]string{{"run", "wait", "r1"}, {"run", "start", "--wait"}, {"run", "report", "r1"}, {"run", "rerun", "r1", "--wait"}} {
		r := e.Run(append(append([]string{"__complete"}, cmd...), "--fail-on", "")...).Expect(t, 0)
		if !strings.HasPrefix(r.Stdout, "any\nnew\n") {
			t.Errorf("%v --fail-on completes %q", cmd, r.Stdout)
		}
	}
}

// A service whose run detail names no plan: run wait RUNID finds the plan
// in the run list for the baseline only. The JUnit suite keeps the name a
// wait without --baseline gives it, since a page of the run list is no
// stable name for it.
func TestABaselineFoundThroughTheRunListRenamesNoSuite(t *testing.T) {
	e, id := baselineEnv(t)
	sb := e.Sandbox.Server
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1/run/"+id {
			sb.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		sb.ServeHTTP(rec, r)
		var doc map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Errorf("run detail: %v", err)
		}
		delete(doc, "testPlan")
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(doc)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	suites := func(args ...string) []string {
		junit := e.WriteFile("j.xml", "")
		e.Run(append([]string{"run", "wait", id, "--evidence", "0", "--junit", junit}, args...)...).Expect(t, 1)
		var names []string
		for _, s := range cmdtest.ReadJUnitFile(t, junit).Suites {
			names = append(names, s.Name)
		}
		return names
	}
	without := suites()
	r := suites("--baseline", "main")
	if strings.Join(r, ",") != strings.Join(without, ",") {
		t.Errorf("JUnit suites %q with --baseline, %q without", r, without)
	}
	out := e.Run("run", "wait", id, "--evidence", "0", "--baseline", "main").Expect(t, 1)
	cmdtest.Contains(t, "stderr", out.Stderr, "failures: 1 new failure · 1 known")
}
