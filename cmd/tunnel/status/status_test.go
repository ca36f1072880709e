package status

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
)

// parse runs a command line through NewCmdStatus: the Options its run would get.
var parse = flagtest.Parser(NewCmdStatus)

func TestFlagsToOptions(t *testing.T) {
	o, err := parse(t, "runner-1")
	if err != nil || o.RunnerID != "runner-1" || o.WaitUntil != "" || o.Timeout != DefaultTimeout || o.Interval != DefaultInterval {
		t.Errorf("defaults: %v %+v", err, o)
	}
	o, err = parse(t, "runner-1", "--wait-until", "HEALTHY", "--timeout", "90s", "--interval", "2s")
	if err != nil || o.WaitUntil != "healthy" || o.Timeout != 90*time.Second || o.Interval != 2*time.Second {
		t.Errorf("wait: %v %+v", err, o)
	}
	o, err = parse(t, "runner-1", "--wait-until", "degraded")
	if err != nil || o.WaitUntil != "degraded" {
		t.Errorf("degraded: %v %+v", err, o)
	}
}

func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"runner-1", "--wait-until", "inactive"}, "--wait-until"},
		{[]string{"runner-1", "--wait-until", ""}, "--wait-until"},
		{[]string{"runner-1", "--timeout", "1m"}, "--timeout applies only with --wait-until"},
		{[]string{"runner-1", "--interval", "1s"}, "--interval applies only with --wait-until"},
		{[]string{"runner-1", "--wait-until", "healthy", "--timeout", "0s"}, "--timeout"},
		{[]string{"runner-1", "--wait-until", "healthy", "--interval", "-1s"}, "--interval"},
		{[]string{"runner 1"}, "runner id"},
		{[]string{"a/b"}, "runner id"},
	} {
		_, err := parse(t, tc.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}

func TestRank(t *testing.T) {
	if !(rank("healthy") > rank("degraded") && rank("degraded") > rank("inactive") && rank("unknown") == rank("inactive")) {
		t.Error("health order")
	}
}

func TestHealthColor(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	st := ios.Styles()
	for in, want := range map[string]func(string) string{"healthy": st.Success, "INACTIVE": st.Failure,
		"degraded": st.Warning, "overloaded": func(s string) string { return s }} {
		if got := healthColor(st, in)(in); got != want(in) {
			t.Errorf("healthColor(%q) gives %q, want %q", in, got, want(in))
		}
	}
}
