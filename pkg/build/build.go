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
	info := Info{Version: Version, Commit: Commit, Date: Date}
	if info.Version != "" {
		return info
	}
	info.Version = "dev"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		info.Version = strings.TrimPrefix(v, "v")
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if info.Commit == "" {
				info.Commit = s.Value
			}
		case "vcs.time":
			if info.Date == "" {
				info.Date = s.Value
			}
		case "vcs.modified":
			if s.Value == "true" && info.Commit != "" {
				info.Commit += "-dirty"
			}
		}
	}
	return info
})
