package config

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"
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
	flags     *pflag.FlagSet
	lookupEnv func(string) (string, bool)
	path      string // "" when no location could be found (no $HOME)
	pathErr   error  // why path is ""
	ownDir    bool   // path is the default location, in testctl's own directory
	file      *File
	profile   string
	profileOf Source
	overrides map[string]string

	warn            io.Writer
	newProfile      bool // this command creates the profile: don't warn it is missing
	warnMissingOnce sync.Once
}

// Options tell Load where flags and the environment come from.
type Options struct {
	Flags     *pflag.FlagSet // global flags; may be nil
	LookupEnv func(string) (string, bool)
	Warn      io.Writer // where warnings about the file go
}

// Load reads the config file (if any) and resolves the active profile.
// Settings are resolved on each Get, in one place: GetWithSource.
//
// Without a location for the file (no $HOME, no XDG_CONFIG_HOME, no
// TESTCTL_CONFIG) Load still succeeds with an empty file, so that settings
// from flags and the environment work; only writing fails.
func Load(opts Options) (*Config, error) {
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	c := &Config{flags: opts.Flags, lookupEnv: opts.LookupEnv, overrides: map[string]string{}, warn: opts.Warn}
	c.path, c.pathErr = ResolvePath(opts.Flags, opts.LookupEnv)
	c.file = &File{}
	if c.path != "" {
		if def, err := DefaultPath(c.getenv); err == nil {
			c.ownDir = filepath.Clean(def) == filepath.Clean(c.path)
		}
		file, mode, err := readFile(c.path)
		if err != nil {
			return nil, err
		}
		c.file = file
		if mode&0o077 != 0 && file.holdsKey() && opts.Warn != nil {
			fmt.Fprintf(opts.Warn, "warning: %s holds an API key and is readable by others (mode %04o); run: chmod 600 %s\n", c.path, mode, c.path)
		}
	}
	c.profile, c.profileOf = c.resolveProfile()
	return c, nil
}

// ResolvePath finds the config file: --config-file, else TESTCTL_CONFIG,
// else the default location. It reads no file, so `config path` works
// even when the file is broken.
func ResolvePath(flags *pflag.FlagSet, lookupEnv func(string) (string, bool)) (string, error) {
	if p, ok := flagValue(flags, "config-file"); ok && p != "" {
		return p, nil
	}
	if p, ok := lookupEnv("TESTCTL_CONFIG"); ok && p != "" {
		return p, nil
	}
	return DefaultPath(func(k string) string { v, _ := lookupEnv(k); return v })
}

func (c *Config) getenv(key string) string {
	v, _ := c.lookupEnv(key)
	return v
}

// flagValue returns a flag's value when it was given on the command line.
func flagValue(flags *pflag.FlagSet, name string) (string, bool) {
	if flags == nil || name == "" {
		return "", false
	}
	f := flags.Lookup(name)
	if f == nil || !f.Changed {
		return "", false
	}
	return f.Value.String(), true
}

func (c *Config) envValue(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	v, ok := c.lookupEnv(name)
	return v, ok && v != ""
}

func (c *Config) resolveProfile() (string, Source) {
	if p, ok := flagValue(c.flags, "profile"); ok && p != "" {
		return ProfileKey(p), SourceFlag
	}
	if p, ok := c.envValue("TESTCTL_PROFILE"); ok {
		return ProfileKey(p), SourceEnv
	}
	if c.file.CurrentProfile != "" {
		return ProfileKey(c.file.CurrentProfile), SourceProfile
	}
	return DefaultProfile, SourceDefault
}

func knownProfiles(f *File) string {
	names := f.ProfileNames()
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Path is the config file's location, "" when none could be found.
func (c *Config) Path() string { return c.path }

// Location is the config file's location, or why there is none.
func (c *Config) Location() (string, error) { return c.path, c.pathErr }

// Profile is the active profile's name.
func (c *Config) Profile() string { return c.profile }

// ProfileNames lists the profiles of the file.
func (c *Config) ProfileNames() []string { return c.file.ProfileNames() }

// CreatesProfile tells the config that this command stores settings in the
// active profile, so that a profile missing from the file is expected
// rather than a typo worth a warning.
func (c *Config) CreatesProfile() { c.newProfile = true }

// Get returns a setting's effective value.
func (c *Config) Get(key string) string {
	v, _ := c.GetWithSource(key)
	return v
}

// GetWithSource resolves a setting and says where its value came from:
// the sandbox's override > a flag given on the command line > a non-empty
// environment variable > the active profile > the default. It is the only
// place that knows this order.
func (c *Config) GetWithSource(key string) (string, Source) {
	if key == KeyCurrentProfile {
		return c.profile, c.profileOf
	}
	if v, ok := c.overrides[key]; ok {
		return v, SourceOverride
	}
	s, ok := Lookup(key)
	if !ok {
		return "", SourceNone
	}
	if v, ok := flagValue(c.flags, s.Flag); ok {
		return v, SourceFlag
	}
	if v, ok := c.envValue(s.Env); ok {
		return v, SourceEnv
	}
	if v := c.profileValue(key); v != "" {
		return v, SourceProfile
	}
	if s.Default != "" {
		return s.Default, SourceDefault
	}
	return "", SourceNone
}

// profileValue reads the active profile. The first time a value is looked
// for in a profile that a flag or TESTCTL_PROFILE named but the file lacks,
// it warns: a mistyped --profile would otherwise fall back in silence.
func (c *Config) profileValue(key string) string {
	values, ok := c.file.Profiles[c.profile]
	if !ok && (c.profileOf == SourceFlag || c.profileOf == SourceEnv) && !c.newProfile && c.warn != nil {
		c.warnMissingOnce.Do(func() {
			fmt.Fprintf(c.warn, "warning: profile %q is not in %s (yet); known profiles: %s\n",
				c.profile, c.describePath(), knownProfiles(c.file))
		})
	}
	return values[key]
}

func (c *Config) describePath() string {
	if c.path == "" {
		return "the config file"
	}
	return c.path
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
