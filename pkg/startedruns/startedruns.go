// Package startedruns is the local record `run start` keeps of the runs it
// started, so that a later `run wait` in another process, or another CI
// step, knows what the run detail does not say: the run's URL and plan, and
// that the run exists (a 404 for a run this machine just created means "not
// visible yet"; for any other id it means "no such run").
package startedruns

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/userfile"
)

// keep is how many runs the record remembers, newest first: enough for a
// day of CI steps on one machine, small enough to read on every wait.
const keep = 200

// maxFile bounds the read of the record: keep runs take some 60 KiB.
const maxFile = 1 << 20

// Run is one run this machine started.
type Run struct {
	// Service is the base URL the run was started on: the same short id
	// on another service is another run.
	Service     string    `json:"service"`
	ShortID     string    `json:"shortId"`
	URL         string    `json:"url,omitempty"`
	PlanName    string    `json:"planName,omitempty"`
	PlanShortID string    `json:"planShortId,omitempty"`
	TestCaseRun bool      `json:"testCaseRun,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
}

// Record is the file that holds the runs.
type Record struct{ Path string }

// ForEnv is the record in the user's cache directory: $XDG_CACHE_HOME/testctl,
// else ~/.cache/testctl. getenv is the factory's, so tests keep it in a
// scratch directory. The zero Record (no home) records nothing.
func ForEnv(getenv func(string) string) Record {
	dir := getenv("XDG_CACHE_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return Record{}
		}
		dir = filepath.Join(home, ".cache")
	}
	return Record{Path: filepath.Join(dir, "testctl", "started-runs.json")}
}

// Add remembers runs, dropping the oldest beyond keep. The file is replaced
// atomically, so a reader never sees half of it; two processes adding at
// once may lose one's runs, which only costs the wait its shortcut.
func (r Record) Add(runs ...Run) error {
	if r.Path == "" || len(runs) == 0 {
		return nil
	}
	all := append(runs, r.read()...)
	data, err := json.Marshal(all[:min(len(all), keep)])
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.Path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(r.Path, data, 0o600)
}

// Find returns the newest run with that short id started on service.
func (r Record) Find(service, shortID string) (Run, bool) {
	for _, run := range r.read() {
		if run.Service == service && run.ShortID == shortID {
			return run, true
		}
	}
	return Run{}, false
}

// Runs returns the runs started on service, newest first ("" for every
// service): what completion offers for run ids and plans.
func (r Record) Runs(service string) []Run {
	return slices.DeleteFunc(r.read(), func(run Run) bool { return service != "" && run.Service != service })
}

// read returns the runs, newest first; a missing or damaged file is an
// empty record: it is a cache, never a reason to fail.
func (r Record) read() []Run {
	if r.Path == "" {
		return nil
	}
	data, err := userfile.Read(context.Background(), r.Path, userfile.Rule{Max: maxFile, Regular: true})
	if err != nil {
		return nil
	}
	var runs []Run
	if json.Unmarshal(data, &runs) != nil {
		return nil
	}
	return runs
}
