package config_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

func TestSetGetListUnset(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", "")
	e.Run("config", "set", "base_url", "https://api.example.com").Expect(t, 0)
	e.Run("config", "set", "project", "proj-shop_a1b2", "--profile", "staging").Expect(t, 0)

	r := e.Run("config", "get", "base_url").Expect(t, 0)
	if r.Stdout != "https://api.example.com\n" {
		t.Errorf("get stdout %q", r.Stdout)
	}
	r = e.Run("config", "get", "project", "--profile", "staging").Expect(t, 0)
	if r.Stdout != "proj-shop_a1b2\n" {
		t.Errorf("profile get %q", r.Stdout)
	}
	r = e.Run("config", "list", "-o", "json").Expect(t, 0)
	var entries []map[string]string
	if err := json.Unmarshal([]byte(r.Stdout), &entries); err != nil {
		t.Fatalf("list json: %v\n%s", err, r.Stdout)
	}
	got := map[string]string{}
	for _, en := range entries {
		got[en["key"]] = en["value"] + "@" + en["source"]
	}
	if got["base_url"] != "https://api.example.com@profile" || got["api_key"] != "****-key@env" || got["output"] != "json@flag" {
		t.Errorf("list: %v", got)
	}
	if strings.Contains(r.Stdout, "sandbox-project-key") {
		t.Error("config list printed the key")
	}
	e.Run("config", "unset", "base_url").Expect(t, 0)
	if r := e.Run("config", "get", "base_url").Expect(t, 0); r.Stdout != "\n" {
		t.Errorf("after unset: %q", r.Stdout)
	}
	path := e.Getenv("TESTCTL_CONFIG")
	assertMode(t, path, 0o600)
	assertMode(t, filepath.Dir(path), 0o700)
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != want {
		t.Errorf("%s: mode %04o, want %04o", path, info.Mode().Perm(), want)
	}
}

func TestSetRejectsBadInput(t *testing.T) {
	e := cmdtest.New(t)
	cases := map[string][]string{
		"api_key is stored only by `testctl auth login`": {"config", "set", "api_key", "k"},
		`unknown key "colour"`:                           {"config", "set", "colour", "red"},
		"invalid base_url":                               {"config", "set", "base_url", "api.example.com"},
		"ends in /v1":                                    {"config", "set", "base_url", "https://api.example.com/v1"},
		"invalid project":                                {"config", "set", "project", "shop"},
		"invalid output":                                 {"config", "set", "output", "xml"},
		"invalid http_timeout":                           {"config", "set", "http_timeout", "soon"},
	}
	for want, args := range cases {
		r := e.Run(args...).Expect(t, 2)
		cmdtest.Contains(t, strings.Join(args, " "), r.Stderr, want, "--help")
	}
	if _, err := os.Stat(e.Getenv("TESTCTL_CONFIG")); !os.IsNotExist(err) {
		t.Error("a rejected set wrote the config file")
	}
}

func TestPath(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("config", "path").Expect(t, 0)
	if strings.TrimSpace(r.Stdout) != e.Getenv("TESTCTL_CONFIG") {
		t.Errorf("path %q", r.Stdout)
	}
}
