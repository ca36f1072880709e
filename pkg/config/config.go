package config

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// Source says where a setting's value came from.
type Source string

// The sources, highest precedence first.
const (
	SourceOverride Source = "sandbox"
	SourceFlag     Source = "flag"
	SourceEnv      Source = "env"
	SourceProfile  Source = "profile"
	SourceDefault  Source = "default"
	SourceNone     Source = "unset"
)

// Config is the resolved settings of one invocation. Build it with Load.
type Config struct {
	v         *viper.Viper
	flags     *pflag.FlagSet
	lookupEnv func(string) (string, bool)
	path      string
	ownDir    bool // path is the default location, in testctl's own directory
	file      *File
	profile   string
	overrides map[string]string
}

// Options tell Load where flags and the environment come from.
type Options struct {
	Flags     *pflag.FlagSet // global flags; may be nil
	LookupEnv func(string) (string, bool)
	Warn      io.Writer // where the loose-permissions warning goes
}

// Load reads the config file (if any) and binds flags and environment.
func Load(opts Options) (*Config, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	c := &Config{v: viper.New(), flags: opts.Flags, lookupEnv: opts.LookupEnv, overrides: map[string]string{}}
	path, err := c.resolvePath()
	if err != nil {
		return nil, err
	}
	c.path = path
	if def, err := DefaultPath(func(k string) string { v, _ := c.lookupEnv(k); return v }); err == nil {
		c.ownDir = filepath.Clean(def) == filepath.Clean(path)
	}
	file, mode, err := readFile(path)
	if err != nil {
		return nil, err
	}
	c.file = file
	if mode&0o077 != 0 && file.holdsKey() && opts.Warn != nil {
		fmt.Fprintf(opts.Warn, "warning: %s holds an API key and is readable by others (mode %04o); run: chmod 600 %s\n", path, mode, path)
	}
	c.profile = c.resolveProfile()
	// A mistyped --profile would otherwise fall back to defaults in silence.
	if _, src := c.profileWithSource(); (src == SourceFlag || src == SourceEnv) && opts.Warn != nil {
		if _, ok := file.Profiles[c.profile]; !ok {
			fmt.Fprintf(opts.Warn, "warning: profile %q is not in %s (yet); known profiles: %s\n",
				c.profile, path, knownProfiles(file))
		}
	}
	for _, s := range Settings() {
		if s.Key == KeyCurrentProfile {
			continue
		}
		if s.Flag != "" && c.flags != nil {
			if f := c.flags.Lookup(s.Flag); f != nil {
				if err := c.v.BindPFlag(s.Key, f); err != nil {
					return nil, err
				}
			}
		}
		if s.Default != "" {
			c.v.SetDefault(s.Key, s.Default)
		}
	}
	profileValues := map[string]any{}
	for k, val := range file.Profiles[c.profile] {
		profileValues[k] = val
	}
	if err := c.v.MergeConfigMap(profileValues); err != nil {
		return nil, err
	}
	return c, nil
}

func knownProfiles(f *File) string {
	names := f.ProfileNames()
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func (c *Config) flagValue(name string) (string, bool) {
	if c.flags == nil {
		return "", false
	}
	f := c.flags.Lookup(name)
	if f == nil || !f.Changed {
		return "", false
	}
	return f.Value.String(), true
}

func (c *Config) resolvePath() (string, error) {
	if p, ok := c.flagValue("config-file"); ok && p != "" {
		return p, nil
	}
	if p, ok := c.lookupEnv("TESTCTL_CONFIG"); ok && p != "" {
		return p, nil
	}
	return DefaultPath(func(k string) string { v, _ := c.lookupEnv(k); return v })
}

func (c *Config) resolveProfile() string {
	name, _ := c.profileWithSource()
	return name
}

func (c *Config) profileWithSource() (string, Source) {
	if p, ok := c.flagValue("profile"); ok && p != "" {
		return p, SourceFlag
	}
	if p, ok := c.lookupEnv("TESTCTL_PROFILE"); ok && p != "" {
		return p, SourceEnv
	}
	if c.file.CurrentProfile != "" {
		return c.file.CurrentProfile, SourceProfile
	}
	return DefaultProfile, SourceDefault
}

// Path is the config file's location.
func (c *Config) Path() string { return c.path }

// Profile is the active profile's name.
func (c *Config) Profile() string { return c.profile }

// ProfileNames lists the profiles of the file.
func (c *Config) ProfileNames() []string { return c.file.ProfileNames() }

// Get returns a setting's effective value.
func (c *Config) Get(key string) string {
	v, _ := c.GetWithSource(key)
	return v
}

// GetWithSource returns a setting's effective value and where it came from.
// The source is computed from the same layers viper resolves, so that
// `auth status` and `config list` can explain every value.
func (c *Config) GetWithSource(key string) (string, Source) {
	if key == KeyCurrentProfile {
		return c.profileWithSource()
	}
	if v, ok := c.overrides[key]; ok {
		return v, SourceOverride
	}
	s, ok := Lookup(key)
	if !ok {
		return "", SourceNone
	}
	// The environment is read through lookupEnv rather than viper's BindEnv
	// so that tests can inject it; viper resolves flags, the profile and defaults.
	switch {
	case s.Flag != "" && c.isFlagSet(s.Flag):
		return c.v.GetString(key), SourceFlag
	case s.Env != "" && c.isEnvSet(s.Env):
		v, _ := c.lookupEnv(s.Env)
		return v, SourceEnv
	case c.file.Profiles[c.profile][key] != "":
		return c.v.GetString(key), SourceProfile
	}
	if v := c.v.GetString(key); v != "" {
		return v, SourceDefault
	}
	return "", SourceNone
}

func (c *Config) isFlagSet(name string) bool { _, ok := c.flagValue(name); return ok }

func (c *Config) isEnvSet(name string) bool {
	v, ok := c.lookupEnv(name)
	return ok && v != ""
}

// Origin names where a setting's value comes from the way a user sets it
// ("--project", "TESTCTL_PROJECT", a profile of the file), so that an
// error about a bad value says what to change.
func (c *Config) Origin(key string) string {
	_, src := c.GetWithSource(key)
	s, _ := Lookup(key)
	switch src {
	case SourceFlag:
		return "--" + s.Flag
	case SourceEnv:
		return s.Env
	case SourceProfile:
		return fmt.Sprintf("%s in profile %q of %s", key, c.profile, c.path)
	case SourceOverride:
		return "--sandbox"
	}
	return string(src)
}

// HTTPTimeout returns the validated per-request timeout.
func (c *Config) HTTPTimeout() (time.Duration, error) {
	raw := c.Get(KeyHTTPTimeout)
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("invalid http_timeout %q (from %s): use a positive duration like 30s", raw, c.Origin(KeyHTTPTimeout))
	}
	return d, nil
}

// Override forces a value above every other source; --sandbox uses it to
// point the invocation at the in-process emulator.
func (c *Config) Override(key, value string) { c.overrides[key] = value }

// Set stores a value in the active profile (or current_profile at top level)
// and saves the file.
func (c *Config) Set(key, value string) error {
	s, ok := Lookup(key)
	if !ok {
		return fmt.Errorf("unknown key %q", key)
	}
	if s.Validate != nil {
		if err := s.Validate(value); err != nil {
			return err
		}
	}
	if key == KeyCurrentProfile {
		c.file.CurrentProfile = value
	} else {
		if c.file.Profiles == nil {
			c.file.Profiles = map[string]map[string]string{}
		}
		if c.file.Profiles[c.profile] == nil {
			c.file.Profiles[c.profile] = map[string]string{}
		}
		c.file.Profiles[c.profile][key] = value
	}
	return c.file.write(c.path, c.ownDir)
}

// Unset removes a value from the active profile and saves the file. It
// reports whether there was anything to remove.
func (c *Config) Unset(key string) (bool, error) {
	if _, ok := Lookup(key); !ok {
		return false, fmt.Errorf("unknown key %q", key)
	}
	if key == KeyCurrentProfile {
		if c.file.CurrentProfile == "" {
			return false, nil
		}
		c.file.CurrentProfile = ""
		return true, c.file.write(c.path, c.ownDir)
	}
	p := c.file.Profiles[c.profile]
	if _, ok := p[key]; !ok {
		return false, nil
	}
	delete(p, key)
	if len(p) == 0 {
		delete(c.file.Profiles, c.profile)
	}
	return true, c.file.write(c.path, c.ownDir)
}
