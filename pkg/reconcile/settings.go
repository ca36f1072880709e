package reconcile

import (
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
)

// DelayEnv is the hidden setting that changes the visibility delay, for
// tests and a sandbox that shows new runs at once. Users never need it: a
// shorter delay than the service's risks a duplicate.
const DelayEnv = "TESTCTL_VISIBILITY_DELAY"

// ForCommand is the Reconciler of a command: the factory's clock, the
// service's visibility delay (the grace run wait gives a new run), notices
// on stderr and the steps in the client's --debug log.
func ForCommand(f *cmdutil.Factory, c *api.Client) (Reconciler, error) {
	r := Reconciler{Clock: f.Clock, Delay: api.NotYetVisibleGrace, Notices: f.IOStreams.ErrOut, Debug: c.Debug,
		WaitArgs: f.Globals.ServiceArgs()}
	if r.Clock == nil {
		r.Clock = clock.Real{}
	}
	if v := f.Getenv(DelayEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return Reconciler{}, exitcode.UsageErrorf("%s=%q: want a duration like 2s", DelayEnv, v)
		}
		r.Delay = d
	}
	return r, nil
}
