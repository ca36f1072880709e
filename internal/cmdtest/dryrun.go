package cmdtest

import (
	"encoding/json"
	"testing"
)

// DryRun returns the body run start --dry-run -o json would send with
// args, and fails the test when the dry run sent anything or would send
// it elsewhere than POST /v1/run.
func (e *Env) DryRun(t testing.TB, ro RunOptions, args ...string) map[string]any {
	t.Helper()
	r := e.RunWith(ro, append([]string{"run", "start", "--dry-run", "-o", "json"}, args...)...).Expect(t, 0)
	var d struct {
		Method, URL string
		Body        map[string]any
	}
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if d.Method != "POST" || d.URL != e.Sandbox.BaseURL+"/v1/run" {
		t.Errorf("dry run %s %s", d.Method, d.URL)
	}
	if n := e.Requests("POST /v1/run"); n != 0 {
		t.Fatalf("--dry-run sent %d POSTs", n)
	}
	return d.Body
}
