package shared

import (
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/cmdutil"
)

// Defaults of the contract for run wait and run start --wait.
const (
	DefaultWaitInterval = 5 * time.Second
	DefaultWaitTimeout  = 60 * time.Minute
)

// WaitOptions are the flags `run wait` and `run start --wait` share.
type WaitOptions struct {
	Interval      time.Duration
	Timeout       time.Duration
	FailOnSkipped bool
	JUnitFile     string
}

// WaitTarget is one run to wait for. CreatedAt is when the run was created
// (zero if unknown): a 404 within NotYetVisibleGrace of it means the run is
// not visible yet rather than missing.
type WaitTarget struct {
	ShortID   string
	URL       string
	CreatedAt time.Time
}

// AddWaitFlags registers the wait flags on fs, bound to o, with the
// contract's defaults.
func AddWaitFlags(fs *pflag.FlagSet, o *WaitOptions) {
	fs.DurationVar(&o.Interval, "interval", DefaultWaitInterval, "time between two polls of a run")
	fs.DurationVar(&o.Timeout, "timeout", DefaultWaitTimeout, "give up waiting after this long (exit 7; the run goes on)")
	fs.BoolVar(&o.FailOnSkipped, "fail-on-skipped", false, "exit 1 when a run ends SKIPPED instead of passing with a warning")
	fs.StringVar(&o.JUnitFile, "junit", "", "write a JUnit XML report of the run(s) to `FILE`")
}

// Validate checks the flag values before anything is sent, so a typo in a CI
// step fails at once instead of after a run has been started.
func (o *WaitOptions) Validate() error {
	if err := cmdutil.ValidatePositiveDuration("interval", o.Interval); err != nil {
		return err
	}
	if err := cmdutil.ValidatePositiveDuration("timeout", o.Timeout); err != nil {
		return err
	}
	if o.JUnitFile == "" {
		return nil
	}
	if st, err := os.Stat(o.JUnitFile); err == nil && st.IsDir() {
		return cmdutil.FlagErrorf("--junit %s is a directory; name a file", o.JUnitFile)
	}
	dir := filepath.Dir(o.JUnitFile)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return cmdutil.FlagErrorf("--junit %s: directory %s does not exist", o.JUnitFile, dir)
	}
	return nil
}
