package config

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/keyring"
)

// globalFlags mirrors the root command's flags that carry settings.
func globalFlags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("testctl", pflag.ContinueOnError)
	for _, s := range Settings() {
		if s.Flag != "" {
			fs.String(s.Flag, "", s.Help)
		}
	}
	fs.String("config-file", "", "")
	return fs
}

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// loadLayers loads the settings of the config file at path, with --flag
// given flagValue and the variable envName set to envValue, each only when
// its value is not empty, and the keyring store (nil: none).
func loadLayers(t *testing.T, path, flag, flagValue, envName, envValue string, store *keyring.Store) *Config {
	t.Helper()
	fs := globalFlags()
	args := []string{"--config-file", path}
	if flagValue != "" {
		args = append(args, "--"+flag, flagValue)
	}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	e := map[string]string{}
	if envValue != "" {
		e[envName] = envValue
	}
	c, err := Load(Options{Flags: fs, LookupEnv: env(e), Keyring: store})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "testctl", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestProfileSelection(t *testing.T) {
	path := writeConfig(t, "current_profile: a\nprofiles:\n  a: {project: proj_a}\n  b: {project: proj_b}\n  c: {project: proj_c}\n")
	cases := []struct {
		flag, env, want string
	}{
		{"", "", "proj_a"}, {"", "b", "proj_b"}, {"c", "b", "proj_c"},
	}
	for _, tc := range cases {
		c := loadLayers(t, path, "profile", tc.flag, "TESTCTL_PROFILE", tc.env, nil)
		if got := c.Get(KeyProject); got != tc.want {
			t.Errorf("flag=%q env=%q: project %q, want %q", tc.flag, tc.env, got, tc.want)
		}
	}
}

func TestConfigPathResolution(t *testing.T) {
	fs := globalFlags()
	c, err := Load(Options{Flags: fs, LookupEnv: env(map[string]string{"XDG_CONFIG_HOME": "/x"})})
	if err != nil || c.Path() != "/x/testctl/config.yaml" {
		t.Errorf("XDG: %q %v", c.Path(), err)
	}
	c, _ = Load(Options{Flags: fs, LookupEnv: env(map[string]string{"XDG_CONFIG_HOME": "/x", "TESTCTL_CONFIG": "/e.yaml"})})
	if c.Path() != "/e.yaml" {
		t.Errorf("env: %q", c.Path())
	}
	_ = fs.Parse([]string{"--config-file", "/f.yaml"})
	c, _ = Load(Options{Flags: fs, LookupEnv: env(map[string]string{"TESTCTL_CONFIG": "/e.yaml"})})
	if c.Path() != "/f.yaml" {
		t.Errorf("flag: %q", c.Path())
	}
}

func TestSetCreatesPrivateFileAndDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "testctl", "config.yaml")
	fs := globalFlags()
	_ = fs.Parse([]string{"--config-file", path})
	c, err := Load(Options{Flags: fs, LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set(context.Background(), KeyBaseURL, "https://api.example.com"); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(context.Background(), KeyAPIKey, "k-123"); err != nil {
		t.Fatal(err)
	}
	assertMode(t, path, 0o600)
	assertMode(t, filepath.Dir(path), 0o700)
	c2, _ := Load(Options{Flags: fs, LookupEnv: env(nil)})
	if got, src := c2.GetWithSource(KeyBaseURL); got != "https://api.example.com" || src != SourceProfile {
		t.Errorf("reloaded %q from %s", got, src)
	}
	if removed, err := c2.Unset(context.Background(), KeyBaseURL); !removed || err != nil {
		t.Errorf("unset: %v %v", removed, err)
	}
	c3, _ := Load(Options{Flags: fs, LookupEnv: env(nil)})
	if got := c3.Get(KeyBaseURL); got != "" {
		t.Errorf("after unset: %q", got)
	}
	assertMode(t, path, 0o600)
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != want {
		t.Errorf("%s: mode %04o, want %04o", path, got, want)
	}
}

func TestWarnsAboutReadableFileWithKey(t *testing.T) {
	path := writeConfig(t, "profiles:\n  default:\n    api_key: k\n")
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	fs := globalFlags()
	_ = fs.Parse([]string{"--config-file", path})
	var warn bytes.Buffer
	if _, err := Load(Options{Flags: fs, LookupEnv: env(nil), Warn: &warn}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), "chmod 600") || strings.Contains(warn.String(), ": k") {
		t.Errorf("warning: %q", warn.String())
	}
	// Without a key, loose permissions are nobody's business.
	path2 := writeConfig(t, "profiles:\n  default:\n    project: proj_x\n")
	_ = os.Chmod(path2, 0o644)
	fs2 := globalFlags()
	_ = fs2.Parse([]string{"--config-file", path2})
	warn.Reset()
	_, _ = Load(Options{Flags: fs2, LookupEnv: env(nil), Warn: &warn})
	if warn.Len() != 0 {
		t.Errorf("unexpected warning: %q", warn.String())
	}
}

func TestValidation(t *testing.T) {
	bad := map[string]string{
		KeyBaseURL: "ftp://x", KeyProject: "project-1", KeyOutput: "xml",
		KeyHTTPTimeout: "soon", KeyCurrentProfile: "no spaces",
	}
	for key, value := range bad {
		s, _ := Lookup(key)
		if s.Validate(value) == nil {
			t.Errorf("%s=%q accepted", key, value)
		}
	}
	if err := ValidateBaseURL("https://api.example.com/v1"); err == nil || !strings.Contains(err.Error(), "/v1") {
		t.Errorf("a /v1 base URL was not explained: %v", err)
	}
}

func TestInvalidFileIsAnError(t *testing.T) {
	path := writeConfig(t, "profiles: [not, a, map")
	fs := globalFlags()
	_ = fs.Parse([]string{"--config-file", path})
	if _, err := Load(Options{Flags: fs, LookupEnv: env(nil)}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want an error naming the file", err)
	}
}

func TestUnknownProfileWarns(t *testing.T) {
	path := writeConfig(t, "profiles:\n  staging: {project: proj_a}\n  prod: {project: proj_b}\n")
	fs := globalFlags()
	_ = fs.Parse([]string{"--config-file", path, "--profile", "stagign"})
	var warn bytes.Buffer
	c, err := Load(Options{Flags: fs, LookupEnv: env(nil), Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	// The warning comes when a value is first looked for in the profile.
	_ = c.Get(KeyProject)
	_ = c.Get(KeyBaseURL)
	if strings.Count(warn.String(), "warning") != 1 || !strings.Contains(warn.String(), `profile "stagign" is not in`) || !strings.Contains(warn.String(), "prod, staging") {
		t.Errorf("warning: %q", warn.String())
	}
	warn.Reset()
	_, _ = Load(Options{Flags: fs, LookupEnv: env(map[string]string{"TESTCTL_PROFILE": "prod"}), Warn: &warn})
	fs2 := globalFlags()
	_ = fs2.Parse([]string{"--config-file", path})
	warn.Reset()
	c, _ = Load(Options{Flags: fs2, LookupEnv: env(map[string]string{"TESTCTL_PROFILE": "prod"}), Warn: &warn})
	_ = c.Get(KeyProject)
	if warn.Len() != 0 {
		t.Errorf("a known profile warned: %q", warn.String())
	}
}

// The file is read by viper, which folds keys to lower case: a profile is
// found whatever the case it is named in, a dotted name stays one profile,
// and a number in the file is a string like any other value.
func TestFileReadByViperKeepsProfilesWhole(t *testing.T) {
	path := writeConfig(t, "current_profile: Prod\nprofiles:\n  Prod: {project: proj_prod, http_timeout: 45}\n  eu.west: {project: proj_eu}\n")
	if got := loadAt(t, path).Get(KeyProject); got != "proj_prod" {
		t.Errorf("current_profile Prod: project %q, want proj_prod", got)
	}
	if got := loadAt(t, path).Get(KeyHTTPTimeout); got != "45" {
		t.Errorf("a number in the file: %q, want \"45\"", got)
	}
	if got := loadAt(t, path, "--profile", "PROD").Get(KeyProject); got != "proj_prod" {
		t.Errorf("--profile PROD: project %q, want proj_prod", got)
	}
	if got := loadAt(t, path, "--profile", "eu.west").Get(KeyProject); got != "proj_eu" {
		t.Errorf("--profile eu.west: project %q, want proj_eu", got)
	}
	c := loadAt(t, path, "--profile", "Prod")
	if err := c.Set(context.Background(), KeyProject, "proj_new"); err != nil {
		t.Fatal(err)
	}
	if got := loadAt(t, path, "--profile", "prod").Get(KeyProject); got != "proj_new" {
		t.Errorf("after set through --profile Prod: project %q, want proj_new", got)
	}
	if names := loadAt(t, path).ProfileNames(); strings.Join(names, ",") != "eu.west,prod" {
		t.Errorf("profiles after a write: %v, want [eu.west prod] (one profile per name, whatever its case)", names)
	}
}

// The patterns are compiled on first use, so that start-up pays only for those
// a command line evaluates; compiling each one here makes a mistyped pattern
// fail the tests rather than the first command that reaches it.
func TestPatternsCompile(t *testing.T) {
	for _, rx := range []func() *regexp.Regexp{projectPattern, profilePattern} {
		rx()
	}
}
