package list

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/paginate"
)

// parse runs a command line through NewCmdList: the Options its run would get.
var parse = flagtest.Parser(NewCmdList)

func TestFlagsToOptions(t *testing.T) {
	o, err := parse(t, "--app", "app_x1", "--label", "smoke", "--label", "auth, api", "--enabled", "FALSE",
		"--limit", "5", "--offset", "10", "--all")
	if err != nil {
		t.Fatal(err)
	}
	if o.App != "app_x1" || strings.Join(o.Labels, "|") != "smoke|auth|api" || o.Enabled == nil || *o.Enabled ||
		o.Limit != 5 || o.Offset != 10 || !o.All {
		t.Errorf("options: %+v", o)
	}
	o, err = parse(t, "--enabled", "true")
	if err != nil || o.Enabled == nil || !*o.Enabled {
		t.Errorf("--enabled true: %v %+v", err, o)
	}
	o, err = parse(t)
	if err != nil || o.Enabled != nil || o.Limit != paginate.DefaultLimit || o.All {
		t.Errorf("defaults: %v %+v", err, o)
	}
}

func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--app", "sandbox-web"}, "--app"},
		{[]string{"--app", "app_"}, "--app"},
		{[]string{"--enabled", "maybe"}, "--enabled"},
		{[]string{"--enabled", ""}, "--enabled"},
		{[]string{"--limit", "0"}, "--limit"},
		{[]string{"--offset", "-1"}, "--offset"},
		{[]string{"--label", ""}, "--label"},
		{[]string{"--label", "a,,b"}, "--label"},
	} {
		_, err := parse(t, tc.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want a usage error naming %s", tc.args, err, tc.want)
		}
	}
}

func TestRelative(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for stamp, want := range map[string]string{
		"2026-11-21T11:59:30Z":      "just now",
		"2026-11-21T12:05:00Z":      "just now", // a service clock ahead of ours
		"2026-11-21T11:15:00Z":      "45m ago",
		"2026-11-20T12:00:00Z":      "24h ago",
		"2026-11-18T12:00:00Z":      "3d ago",
		"2026-01-02T10:00:00+02:00": "2026-01-02",
		"yesterday":                 "yesterday",
	} {
		if got := relative(now, stamp); got != want {
			t.Errorf("relative(%s) = %q, want %q", stamp, got, want)
		}
	}
}

// The table prints the enabled column as yes and no; --enabled takes what
// the table prints as well as true and false.
func TestEnabledTakesWhatTheTablePrints(t *testing.T) {
	for value, want := range map[string]bool{"yes": true, "no": false, "Yes": true, "NO": false, "true": true, "false": false} {
		o, err := parse(t, "--enabled", value)
		if err != nil || o.Enabled == nil || *o.Enabled != want {
			t.Errorf("--enabled %s: %v %+v, want %v", value, err, o, want)
		}
	}
	_, err := parse(t, "--enabled", "maybe")
	if err == nil || !strings.Contains(err.Error(), "yes or no") {
		t.Errorf("--enabled maybe: %v, want the accepted values named", err)
	}
}
