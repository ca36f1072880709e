package mcp

import (
	"strings"
	"testing"
)

// A go run build lives in go-build's temporary exe directory; a go build or
// go install binary, or a test binary, does not.
func TestTemporaryBuild(t *testing.T) {
	for path, want := range map[string]bool{
		"/tmp/go-build1234/b001/exe/testctl":         true,
		`C:\Temp\go-build99\b001\exe\testctl.exe`:    false, // not on this OS's separators
		"/home/me/go/bin/testctl":                    false,
		"/tmp/go-build1234/b001/mcp.test":            false,
		"/home/me/src/testctl/testctl":               false,
		"/var/folders/x/T/go-build42/b001/exe/thing": true,
	} {
		if got := temporaryBuild(path); got != want {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
}

// Under go run, the snippet is refused with how to build instead.
func TestConfigUnderGoRunAsksToBuild(t *testing.T) {
	w := whereAmI{executable: func() (string, error) { return "/tmp/go-build77/b001/exe/testctl", nil }, path: "/usr/bin"}
	if _, _, err := w.command(); err == nil || !strings.Contains(err.Error(), "go run") || !strings.Contains(err.Error(), "build testctl first") {
		t.Errorf("got %v", err)
	}
}
