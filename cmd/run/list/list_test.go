package list

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/paginate"
)

// parse runs a command line through NewCmdList: the Options its run would get.
var parse = flagtest.Parser(NewCmdList)

func page(limit, offset int, all bool) paginate.Flags {
	return paginate.Flags{Limit: limit, Offset: offset, All: all}
}

func TestListFlagsToOptions(t *testing.T) {
	tests := []struct {
		args []string
		want Options
	}{
		{nil, Options{Flags: page(paginate.DefaultLimit, 0, false)}},
		{[]string{"--status", "running", "--result", "Failed", "--trigger", "codehost", "--branch", "main", "--plan", "pln_x"},
			Options{Status: "RUNNING", Result: "FAILED", Trigger: "CODEHOST", Branch: "main", Plan: "pln_x", Flags: page(paginate.DefaultLimit, 0, false)}},
		{[]string{"-L", "5", "--offset", "10"}, Options{Flags: page(5, 10, false)}},
		{[]string{"--all"}, Options{Flags: page(paginate.MaxLimit, 0, true)}},
		{[]string{"--all", "--limit", "7"}, Options{Flags: page(7, 0, true)}},
	}
	for _, tt := range tests {
		flagtest.Want(t, parse, tt.want, tt.args...)
	}
}

func TestListFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--status", "DONE"}, `invalid --status "DONE": valid values are INITIATED, RUNNING, COMPLETED, ERROR, CANCELLED`},
		{[]string{"--result", "OK"}, `invalid --result "OK": valid values are PASSED, FAILED, SKIPPED`},
		// A run's verdict is its result, not its status (issue 39, point 8).
		{[]string{"--status", "FAILED"}, `invalid --status "FAILED": FAILED is a result, not a status: --result FAILED`},
		{[]string{"--status", "passed"}, `invalid --status "passed": PASSED is a result, not a status: --result PASSED`},
		{[]string{"--result", "RUNNING"}, `invalid --result "RUNNING": RUNNING is a status, not a result: --status RUNNING`},
		{[]string{"--trigger", "CRON"}, `invalid --trigger "CRON": valid values are API, CODEHOST`},
		{[]string{"--plan", "checkout"}, `--plan "checkout" is not a test plan short id`},
		{[]string{"--limit", "0"}, "--limit must be between 1 and 100, not 0"},
		{[]string{"--limit", "101"}, "--limit must be between 1 and 100"},
		{[]string{"--offset", "-1"}, "--offset must not be negative"},
	}
	for _, tt := range tests {
		o, err := parse(t, tt.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) || o != nil {
			t.Errorf("%q: %v, want a FlagError containing %q", tt.args, err, tt.want)
		}
	}
}

func TestRelativeTime(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		-time.Minute: "just now", 30 * time.Second: "just now", 3 * time.Minute: "3m ago", 59 * time.Minute: "59m ago",
		2 * time.Hour: "2h ago", 47 * time.Hour: "1d ago", 29 * 24 * time.Hour: "29d ago",
	} {
		if got := relativeTime(now, now.Add(-d)); got != want {
			t.Errorf("%s ago: %q, want %q", d, got, want)
		}
	}
	if got := relativeTime(now, now.AddDate(0, -2, 0)); got != now.AddDate(0, -2, 0).Local().Format("2006-01-02") {
		t.Errorf("two months ago: %q", got)
	}
}

// The patterns are compiled on first use, so that start-up pays only for those
// a command line evaluates; compiling each one here makes a mistyped pattern
// fail the tests rather than the first command that reaches it.
func TestPatternsCompile(t *testing.T) {
	for _, rx := range []func() *regexp.Regexp{planPattern} {
		rx()
	}
}
