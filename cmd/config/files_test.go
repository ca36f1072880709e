package config_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

func TestPathHonoursOutputFlags(t *testing.T) {
	e := cmdtest.New(t)
	want := e.Getenv("TESTCTL_CONFIG")
	r := e.Run("config", "path", "-o", "json").Expect(t, 0)
	var loc map[string]string
	if err := json.Unmarshal([]byte(r.Stdout), &loc); err != nil || loc["path"] != want {
		t.Errorf("-o json: %q %v", r.Stdout, err)
	}
	r = e.Run("config", "path", "--jq", ".path").Expect(t, 0)
	if strings.TrimSpace(r.Stdout) != want {
		t.Errorf("--jq .path: %q", r.Stdout)
	}
}

// Concurrent `config set` of different keys: every one lands.
func TestConcurrentSetsAllLand(t *testing.T) {
	e := cmdtest.New(t)
	const writers = 8
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.Run("config", "set", "project", fmt.Sprintf("proj_%d", i), "--profile", fmt.Sprintf("p%d", i)).Expect(t, 0)
		}()
	}
	wg.Wait()
	for i := range writers {
		r := e.Run("config", "get", "project", "--profile", fmt.Sprintf("p%d", i)).Expect(t, 0)
		if r.Stdout != fmt.Sprintf("proj_%d\n", i) {
			t.Errorf("profile p%d: %q: lost", i, r.Stdout)
		}
	}
}

// With $HOME unset, settings from the environment are enough for a
// command that only reads them; one that writes names the fix.
func TestWithoutHomeEnvironmentSettingsWork(t *testing.T) {
	e := cmdtest.New(t)
	t.Setenv("HOME", "") // the process's own, which os.UserHomeDir would read
	t.Setenv("XDG_CONFIG_HOME", "")
	e.Setenv("HOME", "")
	e.Setenv("TESTCTL_CONFIG", "")
	r := e.Run("run", "list", "-o", "json").Expect(t, 0)
	if r.Stderr != "" {
		t.Errorf("stderr: %s", r.Stderr)
	}
	e.Run("auth", "status").Expect(t, 0)
	e.Run("config", "get", "base_url").Expect(t, 0)

	r = e.Run("config", "set", "project", "proj_a1b2").Expect(t, 8)
	cmdtest.Contains(t, "set", r.Stderr, "$HOME is not set", "TESTCTL_CONFIG")
	r = e.Run("config", "path").Expect(t, 2)
	cmdtest.Contains(t, "path", r.Stderr, "$HOME is not set")
}

// A config that cannot be read or written is a local failure (8); a bad
// value is still a usage error (2).
func TestUnusableConfigExits8(t *testing.T) {
	e := cmdtest.New(t)
	path := e.Getenv("TESTCTL_CONFIG")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("profiles: [not, a, map"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.Run("run", "list").Expect(t, 8)
	cmdtest.Contains(t, "invalid YAML", r.Stderr, path, "not valid YAML")
	e.Run("config", "set", "project", "proj_a1b2").Expect(t, 8)

	if err := os.WriteFile(path, []byte("profiles:\n  default: {output: xml}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = e.Run("run", "list").Expect(t, 2)
	cmdtest.Contains(t, "bad value", r.Stderr, "output")

	// Its directory is a file: nothing can be written there, even by root.
	e.Setenv("TESTCTL_CONFIG", filepath.Join(path, "config.yaml"))
	r = e.Run("config", "set", "project", "proj_a1b2").Expect(t, 8)
	cmdtest.Contains(t, "unwritable", r.Stderr, "the config file", "not a directory")
}

// Config mistakes are said where they are: a misspelt key or a setting
// outside any profile is warned about with its line and the key meant, a
// syntax error names the line to fix, a switch to a profile the file lacks
// is refused, and --sandbox, which needs nothing from the file, goes on.
func TestConfigMistakesAreNamedWhereTheyAre(t *testing.T) {
	e := cmdtest.New(t)
	path := e.Getenv("TESTCTL_CONFIG")
	write := func(content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("base_url: https://top.example.com\nprofiles:\n  default:\n    baseurl: https://x.example.com\n    output: json\n")
	r := e.Run("config", "get", "output").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr,
		path+": line 1: base_url is outside any profile, so no command reads it",
		path+`: line 4: unknown key baseurl in profile "default" is ignored: did you mean base_url?`)
	if strings.Count(r.Stderr, "warning:") != 2 {
		t.Errorf("want two warnings, each once:\n%s", r.Stderr)
	}

	// yaml.v3 says "line 2", where the profiles block began.
	write("current_profile: default\nprofiles:\n  default:\n    project: proj_a1b2\n   base_url: https://x.example.com\n")
	r = e.Run("run", "list").Expect(t, 8)
	cmdtest.Contains(t, "stderr", r.Stderr, "yaml: line 5: did not find expected key")
	r = e.Run("--sandbox", "run", "list", "--limit", "1").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "warning: reading the config file "+path, "going on without it")

	write("profiles:\n  default:\n    project: proj_a1b2\n  org:\n    project: proj_org\n")
	r = e.Run("config", "set", "current_profile", "nope").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, `no profile "nope"`, "known: default, org", "--profile nope")
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "nope") {
		t.Errorf("the refused profile was written:\n%s", data)
	}
	e.Run("config", "set", "current_profile", "org").Expect(t, 0)
	e.Run("config", "set", "current_profile", "default").Expect(t, 0)
}
