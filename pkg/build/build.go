// Package build holds the version stamped into the binary.
package build

import (
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
	Commit  string `json:"commit"`
	Date    string `json:"date"`
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
	if bi != nil && info.Version == "" {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			info.Version = strings.TrimPrefix(v, "v")
		}
	}
	if info.Version == "" {
		info.Version = "dev"
	}
	if bi == nil {
		return info
	}
	var revision, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			if info.Date == "" {
				info.Date = s.Value
			}
		case "vcs.modified":
			modified = s.Value
		}
	}
	if info.Commit == "" && revision != "" {
		info.Commit = revision
		if modified == "true" {
			info.Commit += "-dirty"
		}
	}
	return info
}
