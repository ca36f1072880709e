package config

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func loadAt(t *testing.T, path string, args ...string) *Config {
	t.Helper()
	fs := globalFlags()
	if err := fs.Parse(append([]string{"--config-file", path}, args...)); err != nil {
		t.Fatal(err)
	}
	c, err := Load(Options{Flags: fs, LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every writer read the file before any of them wrote: without a locked
// re-read, each write would drop the others' profiles.
func TestConcurrentSetsAllLand(t *testing.T) {
	path := writeConfig(t, "profiles:\n  base: {project: proj_base}\n")
	const writers = 12
	configs := make([]*Config, writers)
	for i := range configs {
		configs[i] = loadAt(t, path, "--profile", fmt.Sprintf("p%d", i))
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i, c := range configs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- c.Set(context.Background(), KeyProject, fmt.Sprintf("proj_%d", i))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := loadAt(t, path)
	for i := range writers {
		p := fmt.Sprintf("p%d", i)
		if v := got.file.Profiles[p][KeyProject]; v != fmt.Sprintf("proj_%d", i) {
			t.Errorf("profile %s: project %q, lost", p, v)
		}
	}
	if got.file.Profiles["base"][KeyProject] != "proj_base" {
		t.Error("the profile nobody touched was lost")
	}
}

func TestSymlinkedConfigStaysALink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "testctl.yaml")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("profiles:\n  default: {project: proj_a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "config", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../dotfiles/testctl.yaml", link); err != nil {
		t.Fatal(err)
	}
	c := loadAt(t, link)
	if err := c.Set(context.Background(), KeyBaseURL, "https://api.example.com"); err != nil {
		t.Fatal(err)
	}
	if removed, err := c.Unset(context.Background(), KeyProject); !removed || err != nil {
		t.Fatalf("unset: %v %v", removed, err)
	}
	info, err := os.Lstat(link)
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the config is no longer a symbolic link: %v %v", info.Mode(), err)
	}
	assertMode(t, target, 0o600)
	data, _ := os.ReadFile(target)
	if !strings.Contains(string(data), "https://api.example.com") || strings.Contains(string(data), "proj_a") {
		t.Errorf("target holds:\n%s", data)
	}
	// The link's directory holds only the link and the lock beside it.
	entries, _ := os.ReadDir(filepath.Dir(link))
	for _, e := range entries {
		if e.Name() != "config.yaml" && e.Name() != "config.yaml.lock" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestNoHomeStillReadsFlagsAndEnvironment(t *testing.T) {
	e := env(map[string]string{"TESTCTL_BASE_URL": "https://api.example.com"})
	c, err := Load(Options{Flags: globalFlags(), LookupEnv: e})
	if err != nil {
		t.Fatalf("load without $HOME: %v", err)
	}
	if got, src := c.GetWithSource(KeyBaseURL); got != "https://api.example.com" || src != SourceEnv {
		t.Errorf("base_url %q from %s", got, src)
	}
	if c.Path() != "" {
		t.Errorf("path %q", c.Path())
	}
	err = c.Set(context.Background(), KeyProject, "proj_a")
	var fe *FileError
	if !errors.As(err, &fe) || fe.ExitCode() != 8 || !strings.Contains(err.Error(), "XDG_CONFIG_HOME") {
		t.Errorf("write without a location: %v", err)
	}
}

func TestUnreadableFileIsAFileError(t *testing.T) {
	path := writeConfig(t, "profiles: [not, a, map")
	fs := globalFlags()
	_ = fs.Parse([]string{"--config-file", path})
	_, err := Load(Options{Flags: fs, LookupEnv: env(nil)})
	var fe *FileError
	if !errors.As(err, &fe) || fe.ExitCode() != 8 {
		t.Errorf("invalid YAML: %v, want a FileError", err)
	}
}

func TestUnsetWithoutAFileWritesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "testctl")
	c := loadAt(t, filepath.Join(dir, "config.yaml"))
	if removed, err := c.Unset(context.Background(), KeyProject); removed || err != nil {
		t.Errorf("unset: %v %v", removed, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("unset of nothing created %s", dir)
	}
	noHome, err := Load(Options{Flags: globalFlags(), LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if removed, err := noHome.Unset(context.Background(), KeyAPIKey); removed || err != nil {
		t.Errorf("unset without a location: %v %v", removed, err)
	}
}

// Unsetting a profile's last key removes the profile, unless it is the
// current one: current_profile must not name a profile the file lacks.
func TestUnsetKeepsTheCurrentProfile(t *testing.T) {
	f := &File{CurrentProfile: "Staging", Profiles: map[string]map[string]string{
		"staging": {KeyProject: "proj_x1"}, "other": {KeyProject: "proj_x2"}}}
	if !f.unset("staging", KeyProject) || !f.unset("other", KeyProject) {
		t.Fatal("nothing unset")
	}
	if _, ok := f.Profiles["staging"]; !ok {
		t.Error("the current profile was removed")
	}
	if _, ok := f.Profiles["other"]; ok {
		t.Error("an empty profile that is not the current one stayed")
	}
}
