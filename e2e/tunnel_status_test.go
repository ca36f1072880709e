package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

const getTunnelStatus = "GET /v1/remote-tunnels/{runnerId}/status"

func TestEachState(t *testing.T) {
	e := cmdtest.New(t)
	for _, tc := range []struct {
		runner string
		wants  []string
	}{
		{"runner-healthy", []string{"Health:       healthy\n", "Connections:  4\n",
			"Hostnames:    port 3000 → https://runner-healthy-3000.tunnel.sandbox.testctl.invalid\n",
			"              port 8080 → https://runner-healthy-8080.tunnel.sandbox.testctl.invalid\n"}},
		{"runner-degraded", []string{"Health:       degraded\n", "Connections:  2\n", "port 3000 → "}},
		{"runner-inactive", []string{"Health:       inactive\n", "Connections:  0\n", "Hostnames:    none\n"}},
		// No status field: derived from 5 connections.
		{"runner-nostatus", []string{"Health:       healthy\n", "Connections:  5\n", "port 5173 → "}},
	} {
		r := e.Run("tunnel", "status", tc.runner).Expect(t, 0)
		cmdtest.Contains(t, tc.runner, r.Stdout, append(tc.wants, "Runner:       "+tc.runner+"\n")...)
	}

	r := e.Run("tunnel", "status", "runner-nostatus", "-o", "json").Expect(t, 0)
	var st struct {
		Status      string `json:"status"`
		Connections int    `json:"connections"`
		Hostnames   []struct {
			LocalPort int    `json:"localPort"`
			URL       string `json:"url"`
		} `json:"hostnames"`
	}
	// -o json is the service's document: the health derived for the table
	// is not invented there.
	if err := json.Unmarshal([]byte(r.Stdout), &st); err != nil || strings.Contains(r.Stdout, `"status"`) || st.Connections != 5 ||
		len(st.Hostnames) != 1 || st.Hostnames[0].LocalPort != 5173 {
		t.Errorf("json: %v %+v", err, st)
	}

	r = e.RunWith(cmdtest.RunOptions{TTY: true}, "tunnel", "status", "runner-degraded").Expect(t, 0)
	cmdtest.Contains(t, "terminal", r.Stdout, "\x1b[33mdegraded\x1b[0m")

	r = e.Run("tunnel", "status", "runner-missing").Expect(t, 5)
	cmdtest.Contains(t, "stderr", r.Stderr, "runner-missing")
}

func TestWaitUntilReached(t *testing.T) {
	e := cmdtest.New(t)
	// runner-warming: inactive, degraded from 10 s, healthy from 20 s.
	r := e.Run("tunnel", "status", "runner-warming", "--wait-until", "healthy", "--interval", "5s", "--timeout", "1m").Expect(t, 0)
	cmdtest.Contains(t, "stdout", r.Stdout, "Health:       healthy\n", "Connections:  4\n")
	cmdtest.Contains(t, "stderr", r.Stderr, "runner-warming is inactive (0 connections); waiting until healthy",
		"runner-warming is degraded (2 connections)", "✓ runner-warming is healthy")
	// One line per change of state, not per poll.
	if n := strings.Count(r.Stderr, "is inactive"); n != 1 {
		t.Errorf("%d progress lines for one state:\n%s", n, r.Stderr)
	}
	if slept, _ := e.Clock.Slept(); slept != 20*time.Second {
		t.Errorf("slept %s, want 20s", slept)
	}
	if n := e.Requests(getTunnelStatus); n != 5 {
		t.Errorf("%d polls, want 5 (0, 5, 10, 15, 20 s)", n)
	}

	// A healthy tunnel satisfies degraded, at once.
	r = e.Run("tunnel", "status", "runner-healthy", "--wait-until", "degraded").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "runner-healthy is healthy")
	if slept, _ := e.Clock.Slept(); slept != 20*time.Second {
		t.Errorf("waited although the target was already reached")
	}
}

func TestWaitUntilTimesOut(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("tunnel", "status", "runner-inactive", "--wait-until", "degraded", "--interval", "10s", "--timeout", "25s").Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "tunnel runner-inactive did not become degraded within 25s: it is inactive with 0 connections")
	cmdtest.Contains(t, "last state on stdout", r.Stdout, "Health:       inactive\n")
	if slept, _ := e.Clock.Slept(); slept != 25*time.Second {
		t.Errorf("slept %s, want exactly the timeout", slept)
	}
	if n := e.Requests(getTunnelStatus); n != 4 {
		t.Errorf("%d polls, want 4 (0, 10, 20, 25 s)", n)
	}

	r = e.Run("tunnel", "status", "runner-degraded", "--wait-until", "healthy", "--timeout", "1m", "-o", "json").Expect(t, 1)
	if !json.Valid([]byte(r.Stdout)) {
		t.Errorf("stdout is not the last status as JSON: %q", r.Stdout)
	}
}

// Transient failures (5xx, 429, dropped connections) while polling do not
// end the wait; the tunnel still comes up in time.
func TestWaitSurvivesTransientErrors(t *testing.T) {
	e := cmdtest.New(t, cmdtest.WithSandbox(sandbox.Options{FaultRate: 0.5, Seed: 7}))
	r := e.Run("tunnel", "status", "runner-warming", "--wait-until", "healthy", "--interval", "2s", "--timeout", "2m").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "retrying", "runner-warming is healthy")
	if e.Sandbox.Server.Stats().FaultsInjected == 0 {
		t.Fatal("no fault was injected; the test proves nothing")
	}
}

func TestWaitStopsOnPermanentErrors(t *testing.T) {
	e := cmdtest.New(t)
	e.Run("tunnel", "status", "runner-typo", "--wait-until", "healthy").Expect(t, 5)
	e.Setenv("TESTCTL_API_KEY", "not-a-key")
	e.Run("tunnel", "status", "runner-warming", "--wait-until", "healthy").Expect(t, 4)
	if slept, _ := e.Clock.Slept(); slept != 0 {
		t.Errorf("waited %s on an error that will not go away", slept)
	}
}

func TestTunnelStatusInvalidFlagsSendNothing(t *testing.T) {
	e := cmdtest.New(t)
	for _, args := range [][]string{
		{"tunnel", "status", "runner-healthy", "--wait-until", "up"},
		{"tunnel", "status", "runner-healthy", "--timeout", "1m"},
		{"tunnel", "status", "runner-healthy", "--wait-until", "healthy", "--interval", "0s"},
		{"tunnel", "status"},
	} {
		r := e.Run(args...).Expect(t, 2)
		if r.Stdout != "" {
			t.Errorf("%q: stdout %q", args, r.Stdout)
		}
	}
	if n := e.Requests(getTunnelStatus); n != 0 {
		t.Errorf("%d requests reached the sandbox", n)
	}
}
