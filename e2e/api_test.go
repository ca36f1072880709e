package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

func TestGetWithQueryFields(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("api", "-X", "GET", "/v1/run", "-f", "limit=2", "-f", "offset=1", "--debug").Expect(t, 0)
	cmdtest.Contains(t, "debug log", r.Stderr, "GET "+e.Getenv("TESTCTL_BASE_URL")+"/v1/run?limit=2&offset=1")
	var list struct {
		Runs   []json.RawMessage `json:"runs"`
		Limit  int               `json:"limit"`
		Offset int               `json:"offset"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil || len(list.Runs) != 2 || list.Limit != 2 || list.Offset != 1 {
		t.Errorf("%v %+v\n%s", err, list, r.Stdout)
	}
	// A query in the path works too, and --jq filters the answer.
	r = e.Run("api", "v1/run?limit=3", "--jq", ".runs | length").Expect(t, 0)
	if strings.TrimSpace(r.Stdout) != "3" {
		t.Errorf("--jq: %q", r.Stdout)
	}
}

func TestPostWithTypedFieldsAndInput(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("api", "/v1/run", "-f", "testPlanShortId=pln-failing_sandbox", "--jq", ".run.shortId").Expect(t, 0)
	run := strings.TrimSpace(r.Stdout)
	if run == "" || e.Sandbox.Server.Stats().RunsStarted != 1 {
		t.Fatalf("start: %s", r.Output())
	}
	e.Clock.Advance(60e9)
	// The sandbox decodes bodies strictly: failedOnly must be a JSON boolean.
	e.Run("api", "/v1/run/"+run, "-f", "failedOnly=true").Expect(t, 0)
	r = e.Run("api", "/v1/run/"+run, "--raw-field", "failedOnly=true").Expect(t, 2)
	cmdtest.Contains(t, "400 body on stderr", r.Stderr, `"message"`, "failedOnly")
	if r.Stdout != "" {
		t.Errorf("error body on stdout: %q", r.Stdout)
	}

	r = e.RunWith(cmdtest.RunOptions{Stdin: `{"testPlanShortId": "pln-passing_sandbox"}`}, "api", "/v1/run", "--input", "-").Expect(t, 0)
	var started struct {
		Success bool `json:"success"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &started); err != nil || !started.Success {
		t.Errorf("--input -: %v %s", err, r.Stdout)
	}
	file := e.WriteFile("body.json", `{"testPlanShortId": "pln-skipped_sandbox"}`)
	e.Run("api", "/v1/run", "--input", file).Expect(t, 0)
	if n := e.Sandbox.Server.Stats().RunsStarted; n != 4 {
		t.Errorf("%d runs started (with one rerun), want 4", n)
	}
}

func TestPublicEndpointsNeedNoKey(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	r := e.Run("api", "/v1/outbound-ips").Expect(t, 0)
	for _, ip := range sandbox.OutboundIPs {
		cmdtest.Contains(t, "stdout", r.Stdout, ip)
	}
	r = e.Run("api", "-X", "GET", "/v1/badge.svg", "-f", "token="+sandbox.ProjectKey, "-f", "testPlanShortId=pln-passing_sandbox", "-i").Expect(t, 0)
	if !strings.HasPrefix(r.Stdout, "<svg") {
		t.Errorf("badge: %q", r.Stdout)
	}
	cmdtest.Contains(t, "--include", r.Stderr, "HTTP 200 OK", "Content-Type: image/svg+xml")

	// An operation that needs a key: the service's 401, exit 4, with a hint.
	r = e.Run("api", "/v1/applications").Expect(t, 4)
	cmdtest.Contains(t, "stderr", r.Stderr, "HTTP 401", "auth login")
}

func TestNotFoundExitsFiveWithBodyOnStderr(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("api", "/v1/run/nosuch").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, `"message"`, "nosuch", "HTTP 404")
	if r.Stdout != "" {
		t.Errorf("stdout: %q", r.Stdout)
	}
	e.Run("api", e.Getenv("TESTCTL_BASE_URL")+"/v1/applications").Expect(t, 0)
}

func TestInvalidRequestsSendNothing(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{
		{"api", "https://evil.example/v1/run"},
		{"api", "/run"},
		{"api", "/v1/../admin"},
		{"api", "/v1/run", "-X", "BREW"},
		{"api", "/v1/run", "-f", "limit"},
		{"api", "/v1/run", "--input", "-"},
	} {
		r := e.RunWith(cmdtest.RunOptions{Stdin: "{not json"}, args...).Expect(t, 2)
		if r.Stdout != "" {
			t.Errorf("%q: stdout %q", args, r.Stdout)
		}
	}
	if n := totalRequests(e); n != 0 {
		t.Errorf("%d requests reached the sandbox", n)
	}
}
