package auth_test

import (
	"os"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
)

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
