package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// The tools that write reports take ctrf as they take junit and html: a
// path inside the working directory, written with the verdict; start_run
// refuses it without wait.
func TestToolsWriteTheCTRFReport(t *testing.T) {
	e := cmdtest.New(t)
	dir := t.TempDir()
	t.Chdir(dir)
	a := connect(t, e, false)
	ctx := context.Background()
	r := a.call(t, ctx, "start_run", map[string]any{"plans": []string{sandbox.PlanFailing}, "ctrf": "start.json"})
	if r.isError && r.data.ExitCode != 1 {
		t.Fatalf("start_run: %+v\n%s", r.data, r.text)
	}
	id := r.data.RunIDs[0]
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"wait_run", map[string]any{"run_ids": []string{id}, "ctrf": "wait.json"}},
		{"run_report", map[string]any{"run_ids": []string{id}, "ctrf": "report.json"}},
	} {
		a.call(t, ctx, c.tool, c.args)
	}
	for _, name := range []string{"start.json", "wait.json", "report.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		var doc struct {
			ReportFormat string `json:"reportFormat"`
			Results      struct {
				Summary map[string]int `json:"summary"`
			} `json:"results"`
		}
		if err != nil || json.Unmarshal(data, &doc) != nil || doc.ReportFormat != "CTRF" || doc.Results.Summary["failed"] == 0 {
			t.Errorf("%s: %v %+v", name, err, doc)
		}
	}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"plans": []string{sandbox.PlanFailing}, "ctrf": "../out.json"}, "inside the working directory"},
		{map[string]any{"plans": []string{sandbox.PlanFailing}, "wait": false, "ctrf": "out.json"}, "go with wait"},
	} {
		r := a.call(t, ctx, "start_run", c.args)
		if !r.isError || !strings.Contains(r.text, c.want) {
			t.Errorf("start_run %v: isError %v, want an error naming %q:\n%s", c.args, r.isError, c.want, r.text)
		}
	}
}
