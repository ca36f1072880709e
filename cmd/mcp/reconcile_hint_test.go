package mcp_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// A start whose answer was lost, and whose run the list cannot tell from
// another job's (its URL override is not shown): the run is named, not
// adopted, and what takes it up is a wait_run call, not a shell command.
func TestALostStartNamesTheCallThatTakesItUp(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	e.Sandbox.Server.LoseNextAnswers(1, sandbox.LostAnswer500)
	res := a.call(t, context.Background(), "start_run", map[string]any{"plans": []string{"pln-passing_sandbox"},
		"apps": []string{"app_sandbox-web,url=https://pr-7.preview.example.com"}, "wait": false})
	cmdtest.Contains(t, "a lost start's result", res.text, "was not adopted", `wait_run {"run_ids": ["`)
	if cmd := regexp.MustCompile(`testctl (run|logs|testcase|tunnel) `).FindString(res.text); cmd != "" {
		t.Errorf("a shell command (%q) in the text:\n%s", cmd, res.text)
	}
}
