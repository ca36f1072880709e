package runwait

import (
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
)

func TestValidateWaitOptions(t *testing.T) {
	dir := t.TempDir()
	ok := Options{Interval: time.Second, Timeout: time.Minute, JUnitFile: dir + "/r.xml"}
	if err := ok.Validate(t.Context(), "https://api.example"); err != nil {
		t.Fatal(err)
	}
	for name, o := range map[string]Options{
		"zero interval":    {Interval: 0, Timeout: time.Minute},
		"negative timeout": {Interval: time.Second, Timeout: -time.Second},
		"missing dir":      {Interval: time.Second, Timeout: time.Minute, JUnitFile: dir + "/nope/r.xml"},
		"junit is a dir":   {Interval: time.Second, Timeout: time.Minute, JUnitFile: dir},
	} {
		if err := o.Validate(t.Context(), "https://api.example"); exitcode.Of(err) != exitcode.Usage {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}
