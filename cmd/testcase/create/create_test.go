package create

import (
	"errors"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
)

const (
	uuid1 = "5a4db001-0000-4000-8000-000000000001"
	uuid2 = "5a4db002-0000-4000-8000-000000000002"
)

// parse runs a command line through NewCmdCreate: the Options its run would get.
var parse = flagtest.Parser(NewCmdCreate)

func required(extra ...string) []string {
	return append([]string{"--name", "Log in", "--goal", "Reach the dashboard", "--app", "app_web"}, extra...)
}

func TestFlagsToRequest(t *testing.T) {
	o, err := parse(t, required("--expected-result", "Dashboard shown", "--config", "cfg_a,cfg_b", "--config", "cfg_a",
		"--scenario", "scenario_s", "--resume-from", strings.ToUpper(uuid1), "--wait-for", uuid2, "--dry-run")...)
	if err != nil {
		t.Fatal(err)
	}
	r := o.Request
	if r.Name != "Log in" || r.Goal != "Reach the dashboard" || r.ApplicationShortID != "app_web" ||
		r.ExpectedResult != "Dashboard shown" || strings.Join(r.ConfigShortIDs, ",") != "cfg_a,cfg_b" ||
		r.ScenarioShortID != "scenario_s" || r.ResumeFromDependencyProjectTestCaseID != uuid1 ||
		strings.Join(r.WaitForDependenciesProjectTestCaseIDs, ",") != uuid2 || !o.DryRun {
		t.Errorf("request: %+v", r)
	}
}

func TestNameLengthCountsCharacters(t *testing.T) {
	// 80 two-byte characters: 160 bytes, within the limit of 80 characters.
	if _, err := parse(t, "--name", strings.Repeat("é", 80), "--goal", "g", "--app", "app_web"); err != nil {
		t.Errorf("80 characters rejected: %v", err)
	}
	if _, err := parse(t, "--name", strings.Repeat("✓", 40)+strings.Repeat("a", 40), "--goal", "g", "--app", "app_web"); err != nil {
		t.Errorf("80 mixed characters rejected: %v", err)
	}
	_, err := parse(t, "--name", strings.Repeat("é", 81), "--goal", "g", "--app", "app_web")
	if err == nil || !strings.Contains(err.Error(), "--name is 81 characters") {
		t.Errorf("81 characters: %v", err)
	}
}

func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--goal", "g", "--app", "app_web"}, "--name is required"},
		{[]string{"--name", "   ", "--goal", "g", "--app", "app_web"}, "--name is required"},
		{[]string{"--name", "two\nlines", "--goal", "g", "--app", "app_web"}, "--name"},
		{[]string{"--name", "n", "--app", "app_web"}, "--goal"},
		{[]string{"--name", "n", "--goal", "g"}, "--app"},
		{required("--app", "web"), "--app"},
		{required("--config", "admin"), "--config"},
		{required("--config", "cfg_a", "--config", ""), "--config"},
		{required("--scenario", "checkout"), "--scenario"},
		{required("--resume-from", "5a4db000"), "--resume-from"},
		{required("--resume-from", "5a4db000-0000-4000-8000-00000000000g"), "--resume-from"},
		{required("--wait-for", uuid1, "--wait-for", "login"), "--wait-for"},
		{required("--resume-from", uuid1, "--wait-for", strings.ToUpper(uuid1)), "--resume-from"},
	} {
		_, err := parse(t, tc.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a usage error naming %s", tc.args, err, tc.want)
		}
	}
}

// A first try names every missing required flag at once, not one per try.
func TestEveryMissingRequiredFlagIsNamed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--name", "X"}, "--goal and --app are required"},
		{nil, "--name, --goal and --app are required"},
		{[]string{"--goal", "g"}, "--name and --app are required"},
	} {
		_, err := parse(t, tc.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
}
