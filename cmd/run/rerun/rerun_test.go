package rerun

import (
	"reflect"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
)

// parse runs a command line through NewCmdRerun: the Options its run would get.
var parse = flagtest.Parser(NewCmdRerun)

func TestRerunFlagsToOptions(t *testing.T) {
	o, err := parse(t, "r0a1b2", "--failed-only", "--wait", "--junit", "", "--timeout", "10m")
	if err != nil {
		t.Fatal(err)
	}
	if o.ShortID != "r0a1b2" || !o.FailedOnly || !o.Wait || o.WaitOptions.Timeout.Minutes() != 10 {
		t.Errorf("%+v", o)
	}
	o, err = parse(t, "r0a1b2", "--test-case", "5a4db001-0000-4000-8000-000000000001,5a4db004-0000-4000-8000-000000000004", "-q")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o.TestCaseIDs, []string{"5a4db001-0000-4000-8000-000000000001", "5a4db004-0000-4000-8000-000000000004"}) || !o.Quiet {
		t.Errorf("%+v", o)
	}
}

func TestRerunRejectsBadInput(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"r0a1b2", "--failed-only", "--test-case", "5a4db001-0000-4000-8000-000000000001"}, "cannot be combined"},
		{[]string{"r0a1b2", "--test-case", "5a4db001"}, "is not a UUID"},
		{[]string{""}, "empty run short id"},
		{[]string{"r0/../x"}, "invalid run short id"},
		{[]string{"r0a1b2", "--dry-run", "--wait"}, "--dry-run sends nothing"},
		{[]string{"r0a1b2", "--dry-run", "-q"}, "-q has no short id"},
		{[]string{"r0a1b2", "--junit", "x.xml"}, "--junit applies to --wait"},
		{[]string{"r0a1b2", "--wait", "--interval", "0s"}, "--interval"},
	} {
		_, err := parse(t, tt.args...)
		if err == nil || exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want a usage error with %q", tt.args, err, tt.want)
		}
	}
}
