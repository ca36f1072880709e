package version_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A binary built by `go build` in a git checkout names its commit and the
// commit's time; built without VCS information (-buildvcs=false, as CI
// exports in GOFLAGS) it is "dev". Built for real, from this working tree
// committed afresh in a temporary repository at a known time. (The
// module version of `go install …@vX` is pkg/build's TestResolve.)
func TestVersionOfABuildFromACheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds testctl twice (-short)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed; CI must run this test")
		}
		t.Skip("skipping: git is not installed (Debian's git)")
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("git", "-C", repo, "rev-parse", "--verify", "HEAD").Run(); err != nil {
		t.Skipf("skipping: %s is not a git checkout with a commit", repo)
	}
	src := t.TempDir()
	copyTree(t, repo, src)
	const when = "2026-01-02T03:04:05Z"
	gitEnv := append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid",
		"GIT_AUTHOR_DATE="+when, "GIT_COMMITTER_DATE="+when)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "build me"}} {
		run(t, src, gitEnv, "git", args...)
	}
	commit := strings.TrimSpace(run(t, src, gitEnv, "git", "rev-parse", "HEAD"))

	build := func(vcs string) string {
		t.Helper()
		bin := filepath.Join(t.TempDir(), "testctl")
		// The flag on the command line wins over GOFLAGS=-buildvcs=false;
		// -trimpath lets the build cache serve a new directory.
		env := append(os.Environ(), "GOFLAGS=-buildvcs=false", "GOPROXY=off", "GOTOOLCHAIN=local", "CGO_ENABLED=0")
		run(t, src, env, filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-trimpath", "-buildvcs="+vcs, "-o", bin, ".")
		return bin
	}
	bin := build("true")
	out := run(t, src, nil, bin, "version")
	want := " (commit " + commit + ", built " + when + ") " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if !strings.HasSuffix(out, want) || strings.HasPrefix(out, "testctl dev") {
		t.Errorf("version of a build from a checkout: %q, want the commit and its time: %q", out, want)
	}
	var info map[string]string
	if err := json.Unmarshal([]byte(run(t, src, nil, bin, "version", "-o", "json")), &info); err != nil ||
		info["commit"] != commit || info["date"] != when || info["version"] == "dev" {
		t.Errorf("version -o json: %v %v", info, err)
	}

	out = run(t, src, nil, build("false"), "version")
	if want := "testctl dev " + runtime.GOOS + "/" + runtime.GOARCH + "\n"; out != want {
		t.Errorf("version of a build without VCS information: %q, want %q", out, want)
	}
}

// copyTree copies the files of repo's working tree that git would commit
// (tracked, or new and not ignored) into dir.
func copyTree(t *testing.T, repo, dir string) {
	t.Helper()
	list, err := exec.Command("git", "-C", repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		from, to := filepath.Join(repo, filepath.FromSlash(name)), filepath.Join(dir, filepath.FromSlash(name))
		fi, err := os.Lstat(from)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted, not yet committed
		}
		if err == nil {
			err = os.MkdirAll(filepath.Dir(to), 0o755)
		}
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			var target string
			if target, err = os.Readlink(from); err == nil {
				err = os.Symlink(target, to)
			}
		} else if err == nil {
			var data []byte
			if data, err = os.ReadFile(from); err == nil {
				err = os.WriteFile(to, data, fi.Mode().Perm())
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr)
	}
	return string(out)
}
