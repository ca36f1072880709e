package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

const postTestCase = "POST /v1/test-cases"

func create(extra ...string) []string {
	return append([]string{"testcase", "create", "--app", "app_sandbox-web", "--name", "Apply a coupon",
		"--goal", "Apply SPRING-2025 and see the discount"}, extra...)
}

func TestCreatePrintsIDAndExplainsGeneration(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run(create("--expected-result", "The total drops", "--config", "cfg_sandbox-admin",
		"--scenario", "scenario_sandbox-checkout", "--resume-from", sandbox.TestCaseLogin,
		"--wait-for", sandbox.TestCaseAddToCart)...).Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	if len(id) != 36 || strings.Count(r.Stdout, "\n") != 1 {
		t.Fatalf("stdout should be the new id alone: %q", r.Stdout)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "GENERATING", "disabled", "web interface", id)

	r = e.Run("testcase", "list", "--enabled", "false", "--jq", ".testCases[].id").Expect(t, 0)
	cmdtest.Contains(t, "disabled test cases", r.Stdout, id)

	r = e.Run(create("-o", "json")...).Expect(t, 0)
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	// Fields our model does not know are kept: -o json is the response.
	if doc["generationStatus"] != "GENERATING" || doc["isEnabled"] != false || doc["applicationShortId"] != "app_sandbox-web" {
		t.Errorf("response: %v", doc)
	}
	if n := e.Sandbox.Server.Stats().TestCasesCreated; n != 2 {
		t.Errorf("%d test cases created, want 2", n)
	}
}

func TestNameLimitIsInCharacters(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("testcase", "create", "--app", "app_sandbox-web", "--goal", "g", "--name", strings.Repeat("ü", 81)).Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--name is 81 characters")
	if e.Requests(postTestCase) != 0 {
		t.Fatal("an 81-character name was sent")
	}
	name := strings.Repeat("名", 80) // 240 bytes
	r = e.Run("testcase", "create", "--app", "app_sandbox-web", "--goal", "g", "--name", name, "-o", "json").Expect(t, 0)
	cmdtest.Contains(t, "response", r.Stdout, name)
}

func TestInvalidInputSendsNothing(t *testing.T) {
	e := cmdtest.New(t)
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"testcase", "create", "--goal", "g", "--app", "app_sandbox-web"}, "--name"},
		{[]string{"testcase", "create", "--name", "n", "--app", "app_sandbox-web"}, "--goal"},
		{[]string{"testcase", "create", "--name", "n", "--goal", "g"}, "--app"},
		{create("--app", "sandbox-web"), "--app"},
		{create("--config", "sandbox-admin"), "--config"},
		{create("--scenario", "sandbox-checkout"), "--scenario"},
		{create("--resume-from", "login"), "--resume-from"},
		{create("--wait-for", "5a4db000-0000-4000-8000"), "--wait-for"},
		{create("--resume-from", sandbox.TestCaseLogin, "--wait-for", sandbox.TestCaseLogin), "--wait-for"},
	} {
		r := e.Run(tc.args...).Expect(t, 2)
		cmdtest.Contains(t, "stderr", r.Stderr, tc.flag)
		if r.Stdout != "" {
			t.Errorf("%q: stdout %q", tc.args, r.Stdout)
		}
	}
	if n := e.Requests(postTestCase); n != 0 {
		t.Errorf("%d create requests reached the sandbox", n)
	}
}

func TestDryRunSendsNothing(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run(create("--config", "cfg_sandbox-admin", "--wait-for", sandbox.TestCaseLogin, "--dry-run")...).Expect(t, 0)
	head, body, ok := strings.Cut(r.Stdout, "\n\n")
	if !ok || head != "POST "+e.Getenv("TESTCTL_BASE_URL")+"/v1/test-cases\nContent-Type: application/json" {
		t.Fatalf("request line:\n%s", r.Stdout)
	}
	// As run start and run rerun --dry-run say it: one printer.
	cmdtest.Contains(t, "stderr", r.Stderr, "Dry run: nothing was sent.")
	var sent map[string]any
	if err := json.Unmarshal([]byte(body), &sent); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	if sent["name"] != "Apply a coupon" || sent["applicationShortId"] != "app_sandbox-web" ||
		sent["configShortIds"].([]any)[0] != "cfg_sandbox-admin" ||
		sent["waitForDependenciesProjectTestCaseIds"].([]any)[0] != sandbox.TestCaseLogin {
		t.Errorf("body: %v", sent)
	}
	r = e.Run(create("--dry-run", "-o", "json")...).Expect(t, 0)
	var doc struct {
		Method string         `json:"method"`
		URL    string         `json:"url"`
		Body   map[string]any `json:"body"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil || doc.Method != "POST" || doc.Body["goal"] == nil {
		t.Errorf("-o json dry run: %v %+v", err, doc)
	}
	if n := e.Requests(postTestCase); n != 0 {
		t.Errorf("a dry run sent %d requests", n)
	}
}

func TestUnknownReferenceIsNotFound(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run(create("--config", "cfg_missing")...).Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "cfg_missing")
	if r.Stdout != "" || e.Sandbox.Server.Stats().TestCasesCreated != 0 {
		t.Errorf("stdout %q after a 404", r.Stdout)
	}
}
