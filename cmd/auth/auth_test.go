package auth_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/keyring"
	"github.com/testctl/testctl/pkg/sandbox"
)

func TestLoginStoresVerifiedKeyFromStdin(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	r := e.RunWith(cmdtest.RunOptions{Stdin: sandbox.ProjectKey + "\n"}, "auth", "login").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "Logged in", "****-key")
	if strings.Contains(r.Output(), sandbox.ProjectKey) {
		t.Fatalf("login echoed the key:\n%s", r.Output())
	}
	if e.Requests("GET /v1/run") != 1 {
		t.Errorf("%d verification calls, want 1", e.Requests("GET /v1/run"))
	}
	if data, err := os.ReadFile(e.Getenv("TESTCTL_CONFIG")); strings.Contains(string(data), sandbox.ProjectKey) {
		t.Fatalf("the key is in the config file: %v\n%s", err, data)
	}
	if got := e.Keyring.(*keyring.Fake).Items()[[2]string{keyring.Service(e.Getenv("TESTCTL_BASE_URL")), "default"}]; got != sandbox.ProjectKey {
		t.Fatalf("keyring holds %q, want the key", got)
	}
	r = e.Run("auth", "status", "-o", "json").Expect(t, 0)
	var st map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st["keySource"] != "keyring" || st["keyLastFour"] != "-key" {
		t.Errorf("status: %v", st)
	}
	if strings.Contains(r.Output(), sandbox.ProjectKey) {
		t.Fatal("status printed the key")
	}

	e.Run("auth", "logout").Expect(t, 0)
	r = e.Run("auth", "status").Expect(t, 4)
	cmdtest.Contains(t, "status after logout", r.Output(), "No API key", "auth login")
}

func TestLoginRejectedKeyIsNotStored(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	r := e.RunWith(cmdtest.RunOptions{Stdin: "not-a-real-key\n"}, "auth", "login").Expect(t, 4)
	cmdtest.Contains(t, "stderr", r.Stderr, "rejected", "nothing was stored")
	if _, err := os.Stat(e.Getenv("TESTCTL_CONFIG")); !os.IsNotExist(err) {
		t.Error("a rejected key was stored")
	}
	if strings.Contains(r.Output(), "not-a-real-key") {
		t.Error("the rejected key was echoed")
	}
}

func TestLoginNeedsAKey(t *testing.T) {
	e := cmdtest.New(t)
	r := e.RunWith(cmdtest.RunOptions{Stdin: "\n"}, "auth", "login").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "no API key given")
	if e.Requests("GET /v1/run") != 0 {
		t.Error("an empty key was sent to the service")
	}
	// The key is never an argument.
	r = e.Run("auth", "login", sandbox.ProjectKey).Expect(t, 2)
	if strings.Contains(r.Output(), sandbox.ProjectKey) {
		t.Error("the key given as an argument was echoed")
	}
}

func TestStatusNamesEnvSource(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("auth", "status").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, "✓ API key ****-key", "TESTCTL_API_KEY", "accepted by the service")
	r = e.Run("auth", "status", "--api-key", "flag-key-9876", "--no-verify").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, "****9876", "--api-key", "not checked (--no-verify)")
}

// A key that is set but refused gets no tick: status asks the service, as
// `gh auth status` does, and exits 4; --no-verify sends nothing.
func TestStatusChecksTheKey(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "bad-key-0000")
	before := e.Requests("GET /v1/run")
	r := e.Run("auth", "status").Expect(t, 4)
	cmdtest.Contains(t, "stdout", r.Stdout, "✗ API key ****0000")
	cmdtest.Contains(t, "stderr", r.Stderr, "error: the service rejected the key from the environment (TESTCTL_API_KEY) (HTTP 401",
		"fix TESTCTL_API_KEY, or unset it", "the environment wins over it")
	if strings.Contains(r.Output(), "bad-key-0000") || strings.Contains(r.Stdout, "✓") {
		t.Errorf("the key is shown, or ticked:\n%s", r.Output())
	}
	if got := e.Requests("GET /v1/run") - before; got != 1 {
		t.Errorf("%d requests to check the key, want 1", got)
	}
	r = e.Run("auth", "status", "-o", "json").Expect(t, 4)
	cmdtest.Contains(t, "stdout", r.Stdout, `"keyCheck": "rejected"`)
	r = e.Run("auth", "status", "--no-verify", "-o", "json").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, `"keyCheck": "skipped"`)
	if got := e.Requests("GET /v1/run") - before; got != 2 {
		t.Errorf("--no-verify sent a request (%d in all, want 2)", got)
	}
	r = e.Run("auth", "status", "--api-key", "bad-key-1111").Expect(t, 4)
	cmdtest.Contains(t, "stderr", r.Stderr, "rejected the key from the --api-key flag", "pass another --api-key")
}

// Ctrl-C at the hidden prompt ends the command at once, as an interruption.
func TestCtrlCAtThePromptExits130(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_API_KEY", "")
	r := e.RunWith(cmdtest.RunOptions{Stdin: "sk-\x03\r", TTY: true}, "auth", "login").Expect(t, 130)
	cmdtest.Contains(t, "stderr", r.Stderr, "interrupted")
	if e.Requests("GET /v1/run") != 0 {
		t.Error("a key was checked after Ctrl-C")
	}
	if _, err := os.Stat(e.Getenv("TESTCTL_CONFIG")); !os.IsNotExist(err) {
		t.Error("the config was written after Ctrl-C")
	}
}
