package wait

import (
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
)

// parse runs a command line through NewCmdWait: the Options its run would get.
var parse = flagtest.Parser(NewCmdWait)

func TestFlagsBindToOptions(t *testing.T) {
	dir := t.TempDir()
	o, err := parse(t, "r1", "r2", "--interval", "20s", "--timeout", "45m", "--fail-on-skipped", "--junit", dir+"/r.xml")
	if err != nil {
		t.Fatal(err)
	}
	w := o.Wait
	if len(o.RunIDs) != 2 || o.RunIDs[1] != "r2" || w.Interval != 20*time.Second || w.Timeout != 45*time.Minute ||
		!w.FailOnSkipped || w.JUnitFile != dir+"/r.xml" {
		t.Errorf("options: %+v", o)
	}
	o, err = parse(t, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if o.Wait.Interval != 5*time.Second || o.Wait.Timeout != time.Hour || o.Wait.FailOnSkipped || o.Wait.JUnitFile != "" {
		t.Errorf("defaults: %+v", o.Wait)
	}
}

func TestInvalidInputIsAUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"r1", "--interval", "0"},
		{"r1", "--timeout", "0s"},
		{"bad id"},
		{"r1", "--junit", t.TempDir() + "/no/such/dir/r.xml"},
	} {
		o, err := parse(t, args...)
		if exitcode.Of(err) != exitcode.Usage || o != nil {
			t.Errorf("%q: %v (runF called: %v)", args, err, o != nil)
		}
	}
}
