package wait_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

var heartbeatLine = regexp.MustCompile(`(?m)^run r[a-z0-9]+ still RUNNING after (\d+:)?\d\d:\d\d: \d of 4 done$`)

// A CI watchdog (CircleCI: ten minutes without output) must not kill a
// long run that is doing fine: off a terminal, silence is broken by a
// progress line every --heartbeat, on the fake clock.
func TestHeartbeatBreaksLongSilences(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", sandbox.PlanSlow, "--wait", "--timeout", "2h", "--heartbeat", "1m").Expect(t, 0)
	beats := heartbeatLine.FindAllString(r.Stderr, -1)
	// The slow plan is silent for twenty minutes twice and ten minutes twice.
	if len(beats) < 50 {
		t.Fatalf("%d heartbeats in an hour of silence at --heartbeat 1m:\n%s", len(beats), r.Stderr)
	}
	if !strings.Contains(r.Stderr, "still RUNNING after 01:0") {
		t.Errorf("the first heartbeat should come a minute into the wait:\n%s", beats[0])
	}
}

func TestNoHeartbeatWhileChangesKeepComing(t *testing.T) {
	e := cmdtest.New(t)
	// The slow plan's longest silence is twenty minutes.
	r := e.Run("run", "start", "--plan", sandbox.PlanSlow, "--wait", "--timeout", "2h", "--heartbeat", "25m").Expect(t, 0)
	if strings.Contains(r.Stderr, "still RUNNING") {
		t.Errorf("a heartbeat although something was printed every 20 minutes:\n%s", r.Stderr)
	}
	r = e.Run("run", "start", "--plan", sandbox.PlanFailing, "--wait", "--heartbeat", "1m").Expect(t, 1)
	if strings.Contains(r.Stderr, "still RUNNING") {
		t.Errorf("a heartbeat for a run that changes every few seconds:\n%s", r.Stderr)
	}
	r = e.Run("run", "start", "--plan", sandbox.PlanSlow, "--wait", "--timeout", "2h", "--heartbeat", "0").Expect(t, 0)
	if strings.Contains(r.Stderr, "still RUNNING") {
		t.Errorf("--heartbeat 0 printed a heartbeat:\n%s", r.Stderr)
	}
	// A terminal has its live line instead.
	r = e.RunWith(cmdtest.RunOptions{TTY: true}, "run", "start", "--plan", sandbox.PlanSlow, "--wait", "--timeout", "2h", "--heartbeat", "1m").Expect(t, 0)
	if strings.Contains(r.Stderr, "still RUNNING after") {
		t.Errorf("a heartbeat on a terminal:\n%s", r.Stderr)
	}
	e.Run("run", "start", "--plan", sandbox.PlanSlow, "--wait", "--heartbeat", "-1m").Expect(t, 2)
}
