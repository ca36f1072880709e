package verdict

import (
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func runDetail(status, result string, cases ...api.RunTestCase) *api.RunDetail {
	d := &api.RunDetail{Status: status, RunTestCases: cases}
	if result != "" {
		d.Result = &result
	}
	return d
}

func caseOf(name, status, result string) api.RunTestCase {
	return api.RunTestCase{Name: name, Status: status, Result: result}
}

func TestTakeUp(t *testing.T) {
	for _, c := range []struct {
		d    *api.RunDetail
		want string
	}{
		{runDetail("RUNNING", ""), CIWaited},
		{runDetail("INITIATED", ""), CIWaited},
		{runDetail("COMPLETED", "PASSED"), CIReused},
		{runDetail("COMPLETED", "SKIPPED"), CIReused},
		{runDetail("COMPLETED", "FAILED"), CIRerunFailed},
		{runDetail("ERROR", ""), CINew},
		{runDetail("CANCELLED", ""), CINew},
	} {
		if got := TakeUp(c.d); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.d.Status, c.d.Result, got, c.want)
		}
	}
}

func TestReran(t *testing.T) {
	failed := runDetail("COMPLETED", "FAILED", caseOf("Login", "COMPLETED", "PASSED"), caseOf("Pay", "COMPLETED", "FAILED"),
		caseOf("Email", "COMPLETED", "SKIPPED"), caseOf("Pay", "COMPLETED", "PASSED"))
	for _, c := range []struct {
		name       string
		prev, next *api.RunDetail
		want       bool
	}{
		{"its failure", failed, runDetail("COMPLETED", "PASSED", caseOf("Pay", "COMPLETED", "PASSED")), true},
		{"its skipped one, with a dependency that passed", failed, runDetail("COMPLETED", "PASSED", caseOf("Login", "COMPLETED", "PASSED"), caseOf("Email", "COMPLETED", "PASSED")), true},
		{"only what passed there", failed, runDetail("COMPLETED", "PASSED", caseOf("Login", "COMPLETED", "PASSED")), false},
		{"a test case it did not run", failed, runDetail("COMPLETED", "PASSED", caseOf("Pay", "COMPLETED", "PASSED"), caseOf("Search", "COMPLETED", "PASSED")), false},
		{"a name more often than it ran", failed, runDetail("COMPLETED", "PASSED", caseOf("Pay", "", ""), caseOf("Pay", "", ""), caseOf("Pay", "", "")), false},
		{"nothing", failed, runDetail("RUNNING", ""), false},
		{"after a run that passed", runDetail("COMPLETED", "PASSED", caseOf("Pay", "COMPLETED", "PASSED")), runDetail("RUNNING", "", caseOf("Pay", "", "")), false},
		{"after a run in error", runDetail("ERROR", "", caseOf("Pay", "ERROR", "")), runDetail("RUNNING", "", caseOf("Pay", "", "")), false},
	} {
		if got := Reran(c.prev, c.next); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
