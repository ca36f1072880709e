package build

import (
	"runtime/debug"
	"testing"
)

// Go lists vcs.modified after vcs.revision today; the order must not matter.
func vcsBuild(version string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/testctl/testctl", Version: version}}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

func TestResolve(t *testing.T) {
	const rev = "4c806c816112d088fe792f1e10229ac28bc1938c"
	const when = "2026-11-23T00:30:40Z"
	tests := []struct {
		name    string
		stamped Info
		bi      *debug.BuildInfo
		want    Info
	}{
		{"go build in a git checkout", Info{},
			vcsBuild("(devel)", "vcs", "git", "vcs.revision", rev, "vcs.time", when, "vcs.modified", "false"),
			Info{"dev", rev, when}},
		{"a checkout with uncommitted changes", Info{},
			vcsBuild("v0.0.0-20261123003040-4c806c816112+dirty", "vcs.modified", "true", "vcs.revision", rev, "vcs.time", when),
			Info{"0.0.0-20261123003040-4c806c816112+dirty", rev + "-dirty", when}},
		{"go install @version, no VCS", Info{},
			vcsBuild("v1.4.0"),
			Info{"1.4.0", "", ""}},
		{"-buildvcs=false", Info{}, vcsBuild("(devel)"), Info{"dev", "", ""}},
		{"no build info", Info{}, nil, Info{"dev", "", ""}},
		{"release: ldflags win over VCS", Info{"1.5.0", "abc123", "2026-01-02T03:04:05Z"},
			vcsBuild("(devel)", "vcs.revision", rev, "vcs.time", when, "vcs.modified", "true"),
			Info{"1.5.0", "abc123", "2026-01-02T03:04:05Z"}},
		{"only the version stamped: commit and date from VCS", Info{Version: "1.5.0"},
			vcsBuild("(devel)", "vcs.revision", rev, "vcs.time", when, "vcs.modified", "false"),
			Info{"1.5.0", rev, when}},
		{"release without build info", Info{"1.5.0", "abc123", "2026-01-02T03:04:05Z"}, nil,
			Info{"1.5.0", "abc123", "2026-01-02T03:04:05Z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resolve(tt.stamped, tt.bi); got != tt.want {
				t.Errorf("resolve(%+v) = %+v, want %+v", tt.stamped, got, tt.want)
			}
		})
	}
}
