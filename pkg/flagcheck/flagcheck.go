// Package flagcheck checks the flag values that several commands take
// alike (a duration, a polling interval, a report's path) before anything
// is sent: a mistake is a usage error (exit 2) that names the flag.
package flagcheck

import (
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

// MinInterval is the shortest --interval against a service elsewhere:
// polling faster loads it without telling anything sooner. The sandbox
// and test servers, on loopback, may be polled faster.
const MinInterval = time.Second

// Durations parsed by flags of several commands share their validation.
func ValidatePositiveDuration(name string, d time.Duration) error {
	if d <= 0 {
		return exitcode.FlagErrorf("--%s must be a positive duration, like 30s or 5m", name)
	}
	return nil
}

// ValidateInterval refuses a polling interval (the flag named name) below
// MinInterval unless the service, at baseURL, is on loopback.
func ValidateInterval(name string, d time.Duration, baseURL string) error {
	if d >= MinInterval {
		return nil
	}
	if u, err := url.Parse(baseURL); err == nil && api.IsLoopback(u.Hostname()) {
		return nil
	}
	return exitcode.FlagErrorf("--%s %s is below the minimum of %s: polling a remote service faster only loads it (a service on loopback, like --sandbox, may be polled faster)", name, d, MinInterval)
}

// ValidateReportPath fails early on a report's path (the flag named flag)
// that cannot be written, so the mistake shows before anything is sent
// rather than after a wait.
func ValidateReportPath(flag, path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return exitcode.FlagErrorf("--%s %s is a directory; name a file", flag, path)
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return exitcode.FlagErrorf("--%s %s: directory %s does not exist", flag, path, dir)
	}
	return nil
}
