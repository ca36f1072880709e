package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// Another job's test case of the same name and application but another
// goal is not the one a lost create made: it is never adopted, and with
// nothing else new within the delay the create is sent once more.
func TestLostCreateNeverAdoptsAnotherGoal(t *testing.T) {
	e := cmdtest.New(t)
	e.OtherJob(postTestCase, cmdtest.LoseRequest, nil, func(body map[string]any) { body["goal"] = "Apply WINTER-2024 and see it refused" })
	r := e.Run(create()...).Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	cmdtest.Contains(t, "stderr", r.Stderr, "sending POST /v1/test-cases once more")
	goal := e.Run("testcase", "list", "--jq", `.testCases[] | select(.id == "`+id+`") | .goal`).Expect(t, 0)
	if strings.TrimSpace(goal.Stdout) != "Apply SPRING-2025 and see the discount" || e.Sandbox.Server.Stats().TestCasesCreated != 2 {
		t.Errorf("printed %s, whose goal is %q; %d test cases created\n%s", id, goal.Stdout, e.Sandbox.Server.Stats().TestCasesCreated, r.Stderr)
	}
}

// Its own test case, of the same name, application and goal, is adopted
// beside it.
func TestLostCreateAdoptsItsOwnBesideAnotherGoal(t *testing.T) {
	e := cmdtest.New(t)
	e.OtherJob(postTestCase, cmdtest.LoseAnswer, nil, func(body map[string]any) { body["goal"] = "Apply WINTER-2024 and see it refused" })
	r := e.Run(create()...).Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	cmdtest.Contains(t, "stderr", r.Stderr, "the answer was lost, but test case "+id+" was created: using it")
	goal := e.Run("testcase", "list", "--jq", `.testCases[] | select(.id == "`+id+`") | .goal`).Expect(t, 0)
	if strings.TrimSpace(goal.Stdout) != "Apply SPRING-2025 and see the discount" {
		t.Errorf("adopted %s, whose goal is %q", id, goal.Stdout)
	}
}
