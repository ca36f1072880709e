package e2e_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
)

func TestStartWaitExitsWithTheVerdict(t *testing.T) {
	e := cmdtest.New(t)
	junit := e.Dir + "/report.xml"
	r := e.Run("run", "start", "--plan", "pln-failing_sandbox", "--wait", "--interval", "2s", "--junit", junit).Expect(t, 1)
	if data, err := os.ReadFile(junit); err != nil || !strings.Contains(string(data), `failures="2"`) {
		t.Errorf("JUnit report: %v\n%s", err, data)
	}
	started := strings.Index(r.Stderr, "Started run ")
	if started < 0 || started > strings.Index(r.Stderr, "FAILED") {
		t.Errorf("the run's id and URL must come first on stderr:\n%s", r.Stderr)
	}
	if n := e.Requests(postRun); n != 1 {
		t.Errorf("%d POSTs", n)
	}
	e.Run("run", "start", "--plan", "pln-erroring_sandbox", "--wait").Expect(t, 3)
	e.Run("run", "start", "--plan", "pln-skipped_sandbox", "--wait", "--fail-on-skipped").Expect(t, 1)
}

func TestStartWaitJSONIsTheFinalDetail(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--wait", "-o", "json").Expect(t, 0)
	var d api.RunDetail
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if d.Status != api.StatusCompleted || d.ResultOrEmpty() != api.ResultPassed || len(d.RunTestCases) != 5 {
		t.Errorf("%+v", d)
	}
}

func TestStartQuietWaitPrintsOnlyTheID(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", "pln-failing_sandbox", "--wait", "-q", "-o", "json").Expect(t, 1)
	id := strings.TrimSpace(r.Stdout)
	if strings.Count(r.Stdout, "\n") != 1 || !strings.Contains(r.Stderr, "Started run "+id) {
		t.Errorf("stdout %q\nstderr %s", r.Stdout, r.Stderr)
	}
}
