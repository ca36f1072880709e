package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
)

// get_run's "run wait would exit N" is decided with the wait's options: the
// default .testctl/quarantine.yaml and today's date, as wait_run's verdict
// is, never with none.
func TestGetRunDecidesAsTheWaitDoes(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, "pln-failing_sandbox")
	r := e.Run("run", "wait", id, "-o", "json").Expect(t, 1)
	var d api.RunDetail
	if err := json.Unmarshal([]byte(r.Stdout), &d); err != nil {
		t.Fatal(err)
	}
	var q strings.Builder
	for _, tc := range d.RunTestCases {
		if tc.Result == "FAILED" || tc.Status == "ERROR" {
			fmt.Fprintf(&q, "- name: %q\n  owner: qa\n  until: 2099-12-31\n", tc.Name)
		}
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".testctl"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".testctl", "quarantine.yaml"), []byte(q.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	a := connect(t, e, true)
	ctx := context.Background()
	wait := a.call(t, ctx, "wait_run", map[string]any{"run_ids": []string{id}})
	get := a.call(t, ctx, "get_run", map[string]any{"run_id": id})
	if wait.data.ExitCode != 0 || !strings.Contains(get.text, "run wait would exit 0") {
		t.Errorf("wait_run exit %d; get_run says:\n%s", wait.data.ExitCode, get.text)
	}
}
