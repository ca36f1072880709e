package get

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
)

// parse runs a command line through NewCmdGet: the Options its run would get.
var parse = flagtest.Parser(NewCmdGet)

const uuid = "5a4db000-0000-4000-8000-0000000000e0"

func TestGetFlagsToOptions(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "r.xml")
	tests := []struct {
		args []string
		want Options
	}{
		{[]string{"r1"}, Options{ShortID: "r1", TestCases: "all"}},
		{[]string{"r1", "--test-cases", "FAILED", "--issues"}, Options{ShortID: "r1", TestCases: "failed", Issues: true}},
		{[]string{"r1", "--junit", junit}, Options{ShortID: "r1", TestCases: "all", JUnitFile: junit}},
		{[]string{"r1", "--legacy", "--project-uuid", uuid}, Options{ShortID: "r1", TestCases: "all", Legacy: true, ProjectUUID: uuid}},
	}
	for _, tt := range tests {
		flagtest.Want(t, parse, tt.want, tt.args...)
	}
}

func TestGetFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"r1", "--test-cases", "passed"}, `invalid --test-cases "passed": valid values are all, failed`},
		{[]string{"r1/../x"}, `invalid run short id "r1/../x"`},
		{[]string{""}, "empty run short id"},
		{[]string{"r1", "--legacy"}, "--legacy needs --project-uuid"},
		{[]string{"r1", "--project-uuid", uuid}, "--project-uuid applies to --legacy only"},
		{[]string{"r1", "--legacy", "--project-uuid", "proj-demo_sandbox"}, `--project-uuid "proj-demo_sandbox" is not a UUID`},
		{[]string{"r1", "--legacy", "--project-uuid", uuid, "--issues"}, "--issues is not available with --legacy"},
		{[]string{"r1", "--legacy", "--project-uuid", uuid, "--test-cases", "all"}, "--test-cases is not available with --legacy"},
		{[]string{"r1", "--legacy", "--project-uuid", uuid, "--junit", "r.xml"}, "--junit is not available with --legacy"},
		{[]string{"r1", "--junit", "/nonexistent/dir/r.xml"}, "--junit /nonexistent/dir/r.xml: directory /nonexistent/dir does not exist"},
		{[]string{"r1", "--junit", t.TempDir()}, "is a directory"},
	}
	for _, tt := range tests {
		o, err := parse(t, tt.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) || o != nil {
			t.Errorf("%q: %v, want a FlagError containing %q", tt.args, err, tt.want)
		}
	}
	// cobra checks the argument count; root turns it into exit 2.
	if _, err := parse(t); err == nil {
		t.Error("no short id accepted")
	}
}
