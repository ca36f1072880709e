package config

import (
	"cmp"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	zk "github.com/zalando/go-keyring"

	"github.com/testctl/testctl/pkg/keyring"
)

// layerValue is a setting's value in one layer, different for each key and
// layer, and fit for a profile's name ("env-base-url").
func layerValue(key string, layer Source) string {
	return string(layer) + "-" + strings.ReplaceAll(key, "_", "-")
}

// The contract's precedence, flag > environment > the active profile >
// default, for every setting and each of the eight combinations of the
// three layers given; GetWithSource names the layer viper's value is from.
// Every flag is declared with a default of its own that is never given: a
// flag not Changed is no value, as viper's BindPFlag has it.
func TestPrecedenceTable(t *testing.T) {
	layers := []Source{SourceFlag, SourceEnv, SourceProfile}
	for _, s := range Settings() {
		for given := range 1 << len(layers) {
			has := map[Source]bool{}
			var names []string
			for i, l := range layers {
				if given&(1<<i) != 0 {
					has[l] = true
					names = append(names, string(l))
				}
			}
			t.Run(s.Key+"/"+cmp.Or(strings.Join(names, "+"), "nothing"), func(t *testing.T) {
				fs := pflag.NewFlagSet("testctl", pflag.ContinueOnError)
				for _, s := range Settings() {
					fs.String(s.Flag, layerValue(s.Key, "unchanged"), "")
				}
				fs.String("config-file", "", "")
				// The profile layer of current_profile is the file's
				// current_profile; that of the others, a key of the
				// active profile.
				file := "current_profile: work\nprofiles:\n  work:\n    unrelated: x\n"
				switch {
				case s.Key == KeyCurrentProfile && has[SourceProfile]:
					file = "current_profile: " + layerValue(s.Key, SourceProfile) + "\n"
				case s.Key == KeyCurrentProfile:
					file = "profiles:\n  default: {unrelated: x}\n"
				case has[SourceProfile]:
					file += "    " + s.Key + ": " + layerValue(s.Key, SourceProfile) + "\n"
				}
				args := []string{"--config-file", writeConfig(t, file)}
				want, wantSrc := s.Default, SourceDefault
				if want == "" {
					wantSrc = SourceNone
				}
				if has[SourceProfile] {
					want, wantSrc = layerValue(s.Key, SourceProfile), SourceProfile
				}
				environment := map[string]string{}
				if has[SourceEnv] && s.Env != "" {
					environment[s.Env] = layerValue(s.Key, SourceEnv)
					want, wantSrc = environment[s.Env], SourceEnv
				}
				if has[SourceFlag] {
					args = append(args, "--"+s.Flag, layerValue(s.Key, SourceFlag))
					want, wantSrc = layerValue(s.Key, SourceFlag), SourceFlag
				}
				if err := fs.Parse(args); err != nil {
					t.Fatal(err)
				}
				c, err := Load(Options{Flags: fs, LookupEnv: env(environment)})
				if err != nil {
					t.Fatal(err)
				}
				if got, src := c.GetWithSource(s.Key); got != want || src != wantSrc {
					t.Errorf("got %q from %s, want %q from %s", got, src, want, wantSrc)
				}
			})
		}
	}
}

// An empty value: a flag given empty is a value, and wins (as with
// BindPFlag); an empty variable or profile key is none (as with BindEnv,
// without AllowEmptyEnv).
func TestEmptyValues(t *testing.T) {
	full := "current_profile: work\nprofiles:\n  work: {project: proj_file}\n"
	for _, tc := range []struct {
		name, file, env string
		args            []string
		key, want       string
		src             Source
	}{
		{"empty flag", full, "proj_env", []string{"--project", ""}, KeyProject, "", SourceFlag},
		{"empty --profile", full, "", []string{"--profile", ""}, KeyCurrentProfile, DefaultProfile, SourceFlag},
		{"empty variable", full, "", nil, KeyProject, "proj_file", SourceProfile},
		{"empty profile key", "profiles:\n  default: {project: ''}\n", "", nil, KeyProject, "", SourceNone},
	} {
		fs := globalFlags()
		if err := fs.Parse(append([]string{"--config-file", writeConfig(t, tc.file)}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		c, err := Load(Options{Flags: fs, LookupEnv: env(map[string]string{"TESTCTL_PROJECT": tc.env})})
		if err != nil {
			t.Fatal(err)
		}
		if got, src := c.GetWithSource(tc.key); got != tc.want || src != tc.src {
			t.Errorf("%s: %s %q from %s, want %q from %s", tc.name, tc.key, got, src, tc.want, tc.src)
		}
	}
}

// --sandbox's Override tops every layer, the flags' included.
func TestOverrideTopsEveryLayer(t *testing.T) {
	path := writeConfig(t, "profiles:\n  default: {base_url: 'https://file.example.com'}\n")
	c := loadLayers(t, path, "base-url", "https://flag.example.com", "TESTCTL_BASE_URL", "https://env.example.com", nil)
	c.Override(KeyBaseURL, "http://127.0.0.1:1")
	if got, src := c.GetWithSource(KeyBaseURL); got != "http://127.0.0.1:1" || src != SourceOverride {
		t.Errorf("got %q from %s", got, src)
	}
	if got := c.Origin(KeyBaseURL); got != "--sandbox" {
		t.Errorf("origin %q", got)
	}
}

// Where a value comes from, as an error about it says.
func TestOriginNamesWhatToChange(t *testing.T) {
	path := writeConfig(t, "current_profile: work\nprofiles:\n  work: {project: proj_file}\n")
	for _, tc := range []struct{ flag, env, want string }{
		{"proj_flag", "proj_env", "--project"},
		{"", "proj_env", "TESTCTL_PROJECT"},
		{"", "", `project in profile "work" of ` + path},
	} {
		if got := loadLayers(t, path, "project", tc.flag, "TESTCTL_PROJECT", tc.env, nil).Origin(KeyProject); got != tc.want {
			t.Errorf("flag %q env %q: origin %q, want %q", tc.flag, tc.env, got, tc.want)
		}
	}
	c, err := Load(Options{Flags: globalFlags(), LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Origin(KeyHTTPTimeout); got != "default" {
		t.Errorf("http_timeout origin %q", got)
	}
}

// A keyring that would fail is never asked while a flag, a variable or the
// file gives the key.
func TestKeyringAskedLast(t *testing.T) {
	zk.MockInitWithError(errors.New("locked"))
	store := &keyring.Store{Backend: keyring.System{}, Timeout: time.Second}
	base := "current_profile: work\nprofiles:\n  work:\n    base_url: https://api.example.com\n"
	for _, tc := range []struct {
		file, flag, env, want string
		src                   Source
	}{
		{base, "flag-key", "", "flag-key", SourceFlag},
		{base, "", "env-key", "env-key", SourceEnv},
		{base + "    api_key: file-key\n", "", "", "file-key", SourceProfile},
	} {
		c := loadLayers(t, writeConfig(t, tc.file), "api-key", tc.flag, "TESTCTL_API_KEY", tc.env, store)
		if key, src, err := c.APIKey(); key != tc.want || src != tc.src || err != nil {
			t.Errorf("%s: got %q from %s (%v)", tc.src, key, src, err)
		}
	}
}
