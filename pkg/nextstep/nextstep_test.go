package nextstep

import (
	"context"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/shellwords"
)

// The shell's wording of a wait is the one every other report prints
// (shellwords.WaitCommand), ids that read as flags after "--" included.
func TestShellWaitIsWaitCommand(t *testing.T) {
	service := []string{"--base-url", "'http://x y'"}
	for _, ids := range []string{"r1 r2", "--junit=/tmp/x/rc r2", "r1 -h", "r1;x --base-url=evil"} {
		got := Shell{}.Step(Wait(service, strings.Fields(ids)))
		if want := shellwords.WaitCommand(service, strings.Fields(ids)); got != want {
			t.Errorf("%s: %q, want %q", ids, got, want)
		}
	}
}

func TestFromDefaultsToShell(t *testing.T) {
	if _, ok := From(context.Background()).(Shell); !ok {
		t.Error("a context without a renderer words steps for a shell")
	}
	if got := (Shell{}).Usage("testctl run start"); got != "Run 'testctl run start --help' for usage." {
		t.Errorf("usage %q", got)
	}
}
