package e2e_test

import (
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// An --interval below one second loads a remote service without telling
// anything sooner: it is refused before anything is sent, unless the
// service is on loopback (the sandbox, test servers), which may be polled
// as fast as a test likes.
func TestIntervalBelowOneSecondOnlyOnLoopback(t *testing.T) {
	const remote = "https://api.example.com"
	tests := []struct {
		name string
		base string // TESTCTL_BASE_URL; "" keeps the Env's loopback sandbox
		args []string
		code int
	}{
		{"run wait remote", remote, []string{"run", "wait", "r1", "--interval", "1ms"}, 2},
		{"run start --wait remote", remote, []string{"run", "start", "--plan", "pln-passing_sandbox", "--wait", "--interval", "999ms"}, 2},
		{"tunnel status remote", remote, []string{"tunnel", "status", "runner-healthy", "--wait-until", "healthy", "--interval", "500ms"}, 2},
		{"run start --wait loopback", "", []string{"run", "start", "--plan", "pln-passing_sandbox", "--wait", "--interval", "10ms"}, 0},
		{"tunnel status loopback", "", []string{"tunnel", "status", "runner-healthy", "--wait-until", "healthy", "--interval", "10ms"}, 0},
		{"--sandbox wins over a remote base URL", remote, []string{"--sandbox", "run", "start", "--plan", "pln-passing_sandbox", "--wait", "--interval", "10ms"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := cmdtest.New(t)
			if tt.base != "" {
				e.Setenv("TESTCTL_BASE_URL", tt.base)
			}
			r := e.Run(tt.args...).Expect(t, tt.code)
			if tt.code == 2 {
				cmdtest.Contains(t, "stderr", r.Stderr, "--interval", "below the minimum of 1s", "loopback")
				if r.Stdout != "" {
					t.Errorf("stdout %q", r.Stdout)
				}
			}
		})
	}
}
