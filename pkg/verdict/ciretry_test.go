package verdict

import (
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func detail(status, result string, cases ...api.RunTestCase) *api.RunDetail {
	d := &api.RunDetail{Status: status, RunTestCases: cases}
	if result != "" {
		d.Result = &result
	}
	return d
}

func tc(name, status, result string) api.RunTestCase {
	return api.RunTestCase{Name: name, Status: status, Result: result}
}

func TestTakeUp(t *testing.T) {
	for _, c := range []struct {
		d    *api.RunDetail
		want string
	}{
		{detail("RUNNING", ""), CIWaited},
		{detail("INITIATED", ""), CIWaited},
		{detail("COMPLETED", "PASSED"), CIReused},
		{detail("COMPLETED", "SKIPPED"), CIReused},
		{detail("COMPLETED", "FAILED"), CIRerunFailed},
		{detail("ERROR", ""), CINew},
		{detail("CANCELLED", ""), CINew},
	} {
		if got := TakeUp(c.d); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.d.Status, c.d.Result, got, c.want)
		}
	}
}

func TestReran(t *testing.T) {
	failed := detail("COMPLETED", "FAILED", tc("Login", "COMPLETED", "PASSED"), tc("Pay", "COMPLETED", "FAILED"),
		tc("Email", "COMPLETED", "SKIPPED"), tc("Pay", "COMPLETED", "PASSED"))
	for _, c := range []struct {
		name       string
		prev, next *api.RunDetail
		want       bool
	}{
		{"its failure", failed, detail("COMPLETED", "PASSED", tc("Pay", "COMPLETED", "PASSED")), true},
		{"its skipped one, with a dependency that passed", failed, detail("COMPLETED", "PASSED", tc("Login", "COMPLETED", "PASSED"), tc("Email", "COMPLETED", "PASSED")), true},
		{"only what passed there", failed, detail("COMPLETED", "PASSED", tc("Login", "COMPLETED", "PASSED")), false},
		{"a test case it did not run", failed, detail("COMPLETED", "PASSED", tc("Pay", "COMPLETED", "PASSED"), tc("Search", "COMPLETED", "PASSED")), false},
		{"a name more often than it ran", failed, detail("COMPLETED", "PASSED", tc("Pay", "", ""), tc("Pay", "", ""), tc("Pay", "", "")), false},
		{"nothing", failed, detail("RUNNING", ""), false},
		{"after a run that passed", detail("COMPLETED", "PASSED", tc("Pay", "COMPLETED", "PASSED")), detail("RUNNING", "", tc("Pay", "", "")), false},
		{"after a run in error", detail("ERROR", "", tc("Pay", "ERROR", "")), detail("RUNNING", "", tc("Pay", "", "")), false},
	} {
		if got := Reran(c.prev, c.next); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
