package start

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/codehost"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/runwait"
)

// parse runs a command line through NewCmdStart: the Options its run would get.
var parse = flagtest.Parser(NewCmdStart)

func TestStartFlagsToOptions(t *testing.T) {
	yes := true
	tests := []struct {
		name  string
		args  []string
		check func(*testing.T, *Options)
	}{
		{"plan", []string{"--plan", "pln-checkout_a1b2"}, func(t *testing.T, o *Options) {
			if !reflect.DeepEqual(o.Plans, []string{"pln-checkout_a1b2"}) || o.TestCaseIDs != nil || o.Trigger != "" || o.Wait {
				t.Errorf("%+v", o)
			}
		}},
		{"several plans", []string{"--plan", "pln_a", "--plan", "pln_b"}, func(t *testing.T, o *Options) {
			if !reflect.DeepEqual(o.Plans, []string{"pln_a", "pln_b"}) {
				t.Errorf("%q", o.Plans)
			}
		}},
		{"test cases repeated and comma-separated", []string{"--test-case", "a", "--test-case", "b,c"}, func(t *testing.T, o *Options) {
			if !reflect.DeepEqual(o.TestCaseIDs, []string{"a", "b", "c"}) {
				t.Errorf("%q", o.TestCaseIDs)
			}
		}},
		{"codehost sets the trigger", []string{"--plan", "pln_x", "--codehost", "--branch", "main"}, func(t *testing.T, o *Options) {
			if !o.Codehost || o.Trigger != api.TriggerCodehost || o.Meta.Branch != "main" {
				t.Errorf("%+v", o)
			}
		}},
		{"explicit trigger wins over codehost", []string{"--plan", "pln_x", "--codehost", "--trigger", "api"}, func(t *testing.T, o *Options) {
			if o.Trigger != api.TriggerAPI {
				t.Errorf("trigger %q", o.Trigger)
			}
		}},
		{"codehost trigger with all five", []string{"--plan", "pln_x", "--trigger", "CODEHOST", "--actor", "a", "--branch", "b",
			"--commit", "c", "--commit-message", "m", "--repository", "r"}, func(t *testing.T, o *Options) {
			if o.Meta != (codehost.Meta{Actor: "a", Branch: "b", Commit: "c", CommitMessage: "m", Repository: "r"}) {
				t.Errorf("%+v", o.Meta)
			}
		}},
		{"apps", []string{"--plan", "pln_x", "--app", "app_a,env=env_s", "--app", "app_b,device=preset_p"}, func(t *testing.T, o *Options) {
			want := []api.RunApplication{{ApplicationShortID: "app_a", Environment: &api.RunEnvironment{ShortID: "env_s"}},
				{ApplicationShortID: "app_b", DevicePresetShortID: "preset_p"}}
			if !reflect.DeepEqual(o.Applications, want) {
				t.Errorf("%+v", o.Applications)
			}
		}},
		{"files", []string{"--plan", "pln_x", "--applications", "apps.json", "--parameters", "-"}, func(t *testing.T, o *Options) {
			if o.ApplicationsFile != "apps.json" || o.ParametersFile != "-" {
				t.Errorf("%+v", o)
			}
		}},
		{"notify", []string{"--plan", "pln_x", "--notify", "slack:#qa", "--notify", "email"}, func(t *testing.T, o *Options) {
			want := []api.Notification{{Type: "slack", Channel: "#qa", Enabled: &yes}, {Type: "email", Enabled: &yes}}
			if !reflect.DeepEqual(o.Notifications, want) {
				t.Errorf("%+v", o.Notifications)
			}
		}},
		{"no-notify", []string{"--plan", "pln_x", "--no-notify"}, func(t *testing.T, o *Options) {
			if !reflect.DeepEqual(o.Notifications, []api.Notification{{Type: "none"}}) {
				t.Errorf("%+v", o.Notifications)
			}
		}},
		{"notify none alone", []string{"--plan", "pln_x", "--notify", "none"}, func(t *testing.T, o *Options) {
			if !reflect.DeepEqual(o.Notifications, []api.Notification{{Type: "none"}}) {
				t.Errorf("%+v", o.Notifications)
			}
		}},
		{"dry-run and quiet", []string{"--plan", "pln_x", "--dry-run"}, func(t *testing.T, o *Options) {
			if !o.DryRun || o.Quiet {
				t.Errorf("%+v", o)
			}
		}},
		{"wait flags", []string{"--plan", "pln_x", "--wait", "-q", "--interval", "20s", "--timeout", "45m", "--fail-on-skipped"}, func(t *testing.T, o *Options) {
			want := runwait.Options{Interval: 20 * time.Second, Timeout: 45 * time.Minute, FailOnSkipped: true, Heartbeat: runwait.DefaultHeartbeat, Evidence: 10, FailOn: "any"}
			if !o.Wait || !o.Quiet || !reflect.DeepEqual(o.WaitOptions, want) {
				t.Errorf("%+v", o)
			}
		}},
		{"wait defaults", []string{"--plan", "pln_x", "--wait"}, func(t *testing.T, o *Options) {
			if o.WaitOptions.Interval != runwait.DefaultInterval || o.WaitOptions.Timeout != runwait.DefaultTimeout {
				t.Errorf("%+v", o.WaitOptions)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parse(t, tt.args...)
			if err != nil {
				t.Fatalf("parse %q: %v", tt.args, err)
			}
			tt.check(t, o)
		})
	}
}

func TestStartFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "pass --plan PLN or --test-case ID"},
		{[]string{"--plan", "pln_x", "--test-case", "a"}, "--plan and --test-case cannot be combined"},
		{[]string{"--plan", "checkout"}, `--plan "checkout" is not a test plan short id`},
		{[]string{"--plan", "pln-nounderscore"}, "is not a test plan short id"},
		{[]string{"--test-case", " "}, "--test-case"},
		{[]string{"--test-case", "a b"}, `--test-case "a b" is not a test case id`},
		{[]string{"--plan", "pln_x", "--trigger", "WEBHOOK"}, `invalid --trigger "WEBHOOK": valid values are API, CODEHOST`},
		{[]string{"--plan", "pln_x", "--trigger", "CODEHOST", "--actor", "a", "--commit", "c"}, "--trigger CODEHOST needs --branch, --commit-message, --repository"},
		{[]string{"--plan", "pln_x", "--app", "web"}, `--app "web": "web" is not an application short id`},
		{[]string{"--plan", "pln_x", "--app", "app_w,region=eu"}, `--app "app_w,region=eu": unknown key "region"`},
		{[]string{"--plan", "pln_x", "--app", "app_w,env=x"}, "--app"},
		{[]string{"--plan", "pln_x", "--app", "app_w,url=nope"}, "is not an absolute http(s) URL"},
		{[]string{"--plan", "pln_x", "--app", "app_w", "--app", "app_w,env=env_s"}, "--app: application app_w is given twice"},
		{[]string{"--plan", "pln_x", "--app", "app_w", "--applications", "f.json"}, "--app and --applications cannot be combined"},
		{[]string{"--plan", "pln_x", "--applications", "-", "--parameters", "-"}, "cannot both read standard input"},
		{[]string{"--plan", "pln_x", "--notify", "slack:#a", "--no-notify"}, "--notify and --no-notify cannot be combined"},
		{[]string{"--plan", "pln_x", "--notify", "slack:"}, `--notify "slack:": empty channel`},
		{[]string{"--plan", "pln_x", "--notify", ":#qa"}, `--notify ":#qa": expected TYPE[:CHANNEL]`},
		{[]string{"--plan", "pln_x", "--notify", "none", "--notify", "email"}, "--notify none suppresses every notification"},
		{[]string{"--plan", "pln_x", "--notify", "none:#x"}, "none takes no channel"},
		{[]string{"--plan", "pln_x", "--plan", "pln_y", "--plan", "pln_x"}, "--plan pln_x is given twice"},
		{[]string{"--plan", "pln_x", "--plan", "x"}, `--plan "x" is not a test plan short id`},
		{[]string{"--plan", "pln_x", "--dry-run", "--wait"}, "--dry-run sends nothing"},
		{[]string{"--plan", "pln_x", "--dry-run", "-q"}, "-q has no short id"},
		{[]string{"--plan", "pln_x", "--junit", "r.xml"}, "--junit applies to --wait"},
		{[]string{"--plan", "pln_x", "--timeout", "5m"}, "--timeout applies to --wait"},
		{[]string{"--plan", "pln_x", "--wait", "--interval", "0s"}, "--interval must be a positive duration"},
		{[]string{"--plan", "pln_x", "--wait", "--interval", "1ms"}, "--interval 1ms is below the minimum of 1s"},
		{[]string{"--plan", "pln_x", "--wait", "--junit", "/nonexistent/dir/r.xml"}, "--junit"},
	}
	for _, tt := range tests {
		o, err := parse(t, tt.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want a FlagError containing %q", tt.args, err, tt.want)
		}
		if o != nil {
			t.Errorf("%q: runF was called", tt.args)
		}
	}
}
