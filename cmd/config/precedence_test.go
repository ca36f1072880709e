package config_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	configcmd "github.com/testctl/testctl/cmd/config"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/config"
)

// The value of each setting in each layer, all different (a source names the
// layer viper's value is from only if the values differ) but for output,
// which has three; -o json is the only flag value --jq takes.
var layerValues = map[string]map[string]string{
	config.KeyAPIKey:         {"flag": "secret-key-flag1", "env": "secret-key-env02", "profile": "secret-key-prof3"},
	config.KeyBaseURL:        {"flag": "https://flag.example.com", "env": "https://env.example.com", "profile": "https://profile.example.com"},
	config.KeyLegacyBaseURL:  {"flag": "https://lflag.example.com", "env": "https://lenv.example.com", "profile": "https://lprofile.example.com"},
	config.KeyProject:        {"flag": "proj_flag", "env": "proj_env", "profile": "proj_profile"},
	config.KeyOutput:         {"flag": "json", "env": "yaml", "profile": "table"},
	config.KeyHTTPTimeout:    {"flag": "11s", "profile": "13s"},
	config.KeyCurrentProfile: {"flag": "flagprof", "env": "envprof", "profile": "fileprof"},
}

// `config list` names, for every setting, the value and layer of the
// contract's precedence (flag > environment > the active profile >
// default), through the real command line and its global flags: each of
// the eight combinations of the three layers, given for every setting at
// once.
func TestListFollowsPrecedence(t *testing.T) {
	e := cmdtest.New(t)
	path := e.Getenv("TESTCTL_CONFIG")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	layers := []string{"flag", "env", "profile"}
	for given := range 1 << len(layers) {
		has := map[string]bool{}
		for i, l := range layers {
			has[l] = given&(1<<i) != 0
		}
		// Every profile a layer can make the active one holds the
		// profile's values.
		var file, profile strings.Builder
		if has["profile"] {
			fmt.Fprintf(&file, "current_profile: %s\n", layerValues[config.KeyCurrentProfile]["profile"])
			for _, s := range config.Settings() {
				if s.Key != config.KeyCurrentProfile {
					fmt.Fprintf(&profile, " %s: '%s',", s.Key, layerValues[s.Key]["profile"])
				}
			}
		}
		file.WriteString("profiles:\n")
		for _, name := range []string{"default", "flagprof", "envprof", "fileprof"} {
			fmt.Fprintf(&file, "  %s: {%s}\n", name, strings.TrimSuffix(profile.String(), ","))
		}
		if err := os.WriteFile(path, []byte(file.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		args := []string{"config", "list", "--jq", "."}
		want := map[string]string{}
		for _, s := range config.Settings() {
			want[s.Key] = s.Default + "@default"
			if s.Default == "" {
				want[s.Key] = "@unset"
			}
			for _, l := range []string{"profile", "env", "flag"} {
				v, ok := layerValues[s.Key][l]
				if !ok || !has[l] {
					continue
				}
				want[s.Key] = v + "@" + l
				if s.Key == config.KeyAPIKey {
					want[s.Key] = configcmd.MaskKey(v) + "@" + l
				}
			}
			e.Setenv(s.Env, "")
			if has["env"] && s.Env != "" {
				e.Setenv(s.Env, layerValues[s.Key]["env"])
			}
			if has["flag"] {
				args = append(args, "--"+s.Flag, layerValues[s.Key]["flag"])
			}
		}
		r := e.Run(args...).Expect(t, 0)
		var entries []configcmd.Entry
		if err := json.Unmarshal([]byte(r.Stdout), &entries); err != nil {
			t.Fatalf("%v: %v\n%s", has, err, r.Stdout)
		}
		got := map[string]string{}
		for _, en := range entries {
			got[en.Key] = en.Value + "@" + en.Source
		}
		for key, w := range want {
			if got[key] != w {
				t.Errorf("%v: %s is %s, want %s", has, key, got[key], w)
			}
		}
	}
}
