// Package build holds the version stamped into the binary.
package build

import (
	"cmp"
	"runtime/debug"
	"strings"
	"sync"
)

// Set by the linker: -X github.com/testctl/testctl/pkg/build.Version=… (and Commit, Date).
var (
	Version = ""
	Commit  = ""
	Date    = ""
)

// Info is the version of this binary.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"` // none on a build without VCS information (go run, go test)
	Date    string `json:"date,omitempty"`
}

// Current returns the stamped version, or what the Go toolchain recorded when
// the binary was built by `go install` or `go build` without ldflags.
//
// It is computed once: debug.ReadBuildInfo parses the module list embedded
// in the binary (forty modules, tens of microseconds), and one start asks
// three times (the factory's User-Agent, the root's --version flag, the
// version command).
func Current() Info { return current() }

var current = sync.OnceValue(func() Info {
	bi, _ := debug.ReadBuildInfo()
	return resolve(Info{Version: Version, Commit: Commit, Date: Date}, bi)
})

// resolve fills what the linker did not stamp from what the go command
// recorded (bi may be nil): the module version `go install …@v1.2.3` sets,
// and the commit and its time that `go build` records in a git checkout
// (not `go run`, nor -buildvcs=false). A release stamps all three; a
// packager who stamps only the version still gets the commit and date.
func resolve(stamped Info, bi *debug.BuildInfo) Info {
	info := stamped
	if bi == nil {
		bi = &debug.BuildInfo{}
	}
	if v := bi.Main.Version; info.Version == "" && v != "(devel)" {
		info.Version = strings.TrimPrefix(v, "v")
	}
	info.Version = cmp.Or(info.Version, "dev")
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	info.Date = cmp.Or(info.Date, vcs["vcs.time"])
	if info.Commit == "" && vcs["vcs.revision"] != "" {
		info.Commit = vcs["vcs.revision"]
		if vcs["vcs.modified"] == "true" {
			info.Commit += "-dirty"
		}
	}
	return info
}
