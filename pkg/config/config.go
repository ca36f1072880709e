package config

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/testctl/testctl/pkg/keyring"
)

// Source says where a setting's value came from.
type Source string

// The sources, highest precedence first.
const (
	SourceOverride Source = "sandbox"
	SourceFlag     Source = "flag"
	SourceEnv      Source = "env"
	SourceProfile  Source = "profile"
	SourceKeyring  Source = "keyring"
	SourceDefault  Source = "default"
	SourceNone     Source = "unset"
)

// Config is the settings of one invocation, resolved by one viper. Build it
// with Load.
type Config struct {
	v         *viper.Viper
	flags     *pflag.FlagSet
	getenv    func(string) string
	path      string // "" when no location could be found (no $HOME)
	pathErr   error  // why path is ""
	ownDir    bool   // path is the default location, in testctl's own directory
	file      *File
	profile   string
	overrides map[string]bool
	keyring   *keyring.Store
	lockWait  time.Duration // how long a write waits for the file's lock
	command   string        // what this command's lock names as its holder

	warn            io.Writer
	newProfile      bool // this command creates the profile: don't warn it is missing
	warnMissingOnce sync.Once
}

// Options tell Load where flags, the environment and the keyring come from.
type Options struct {
	Flags     *pflag.FlagSet              // global flags; may be nil
	LookupEnv func(string) (string, bool) // required
	Warn      io.Writer                   // where warnings about the file go
	Keyring   *keyring.Store              // where `auth login` keeps keys; nil: none
	// BrokenFileOK: a file that can't be read or parsed is warned about
	// and read as empty (--sandbox needs nothing from it), not an error.
	BrokenFileOK bool
	// LockWait bounds a write's wait for the file's lock; 0 is
	// DefaultLockWait.
	LockWait time.Duration
	// Command is the command that writes ("testctl config set"): its lock
	// names it, for a command kept waiting to say who holds it.
	Command string
}

// Load reads the config file (if any) into a new viper, binds the flags,
// the environment and the defaults to it, and picks the active profile.
//
// Without a location for the file (no $HOME, no XDG_CONFIG_HOME, no
// TESTCTL_CONFIG) Load still succeeds with an empty file, so that settings
// from flags and the environment work; only writing fails.
func Load(opts Options) (*Config, error) {
	getenv := func(k string) string { v, _ := opts.LookupEnv(k); return v }
	c := &Config{flags: opts.Flags, getenv: getenv, overrides: map[string]bool{}, warn: opts.Warn, keyring: opts.Keyring,
		lockWait: cmp.Or(opts.LockWait, DefaultLockWait), command: opts.Command}
	c.path, c.pathErr = ResolvePath(opts.Flags, getenv)
	c.file = &File{}
	if c.path != "" {
		if def, err := DefaultPath(c.getenv); err == nil {
			c.ownDir = filepath.Clean(def) == filepath.Clean(c.path)
		}
		// Load runs outside a command's context (the factory's settings are
		// lazy); a regular file's read does not wait, so nothing is lost.
		file, mode, err := readFile(context.Background(), c.path)
		if err != nil && opts.BrokenFileOK && opts.Warn != nil {
			// Writes read the file again under its lock, and fail on it.
			fmt.Fprintf(opts.Warn, "warning: %v; going on without it\n", err)
			file, err = &File{}, nil
		}
		if err != nil {
			return nil, err
		}
		c.file = file
		if opts.Warn != nil {
			for _, w := range file.warnings {
				fmt.Fprintf(opts.Warn, "warning: %s: %s\n", c.path, w)
			}
		}
		if mode&0o077 != 0 && file.holdsKey() && opts.Warn != nil {
			fmt.Fprintf(opts.Warn, "warning: %s holds an API key and is readable by others (mode %04o); run: chmod 600 %s\n", c.path, mode, c.path)
		}
	}
	// The layers, as the package comment explains: the flags given Set, the
	// environment in the flag layer (read through LookupEnv), the active
	// profile the config, the defaults.
	c.v = viper.New()
	for _, s := range Settings() {
		c.v.SetDefault(s.Key, s.Default)
		if s.Env != "" {
			_ = c.v.BindFlagValue(s.Key, envValue{s.Env, getenv}) // fails only for a nil value
		}
		if v, ok := flagValue(opts.Flags, s.Flag); ok {
			c.v.Set(s.Key, v)
		}
	}
	c.merge(map[string]string{KeyCurrentProfile: c.file.CurrentProfile})
	if c.profile = ProfileKey(c.v.GetString(KeyCurrentProfile)); c.profile == "" {
		c.profile = DefaultProfile // --profile ""
	}
	c.merge(c.file.Profiles[c.profile])
	return c, nil
}

// merge adds values to viper's config layer; an empty value is no value.
func (c *Config) merge(values map[string]string) {
	m := map[string]any{}
	for k, v := range values {
		if v != "" {
			m[k] = v
		}
	}
	_ = c.v.MergeConfigMap(m) // never fails
}

// envValue is an environment variable as viper's flag layer sees it: set
// when it is not empty.
type envValue struct {
	name   string
	getenv func(string) string
}

func (e envValue) HasChanged() bool    { return e.ValueString() != "" }
func (e envValue) Name() string        { return e.name }
func (e envValue) ValueString() string { return e.getenv(e.name) }
func (e envValue) ValueType() string   { return "string" }

// ResolvePath finds the config file: --config-file, else TESTCTL_CONFIG,
// else the default location. It reads no file, so `config path` works
// even when the file is broken.
func ResolvePath(flags *pflag.FlagSet, getenv func(string) string) (string, error) {
	if p, ok := flagValue(flags, "config-file"); ok && p != "" {
		return p, nil
	}
	if p := getenv("TESTCTL_CONFIG"); p != "" {
		return p, nil
	}
	return DefaultPath(getenv)
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

// GetWithSource returns viper's value of a setting and the layer it came
// from. The key stored in the keyring is not looked for here: APIKey.
func (c *Config) GetWithSource(key string) (string, Source) {
	value, src := c.v.GetString(key), c.source(key)
	if key == KeyCurrentProfile {
		value = c.profile
	}
	if src != SourceOverride && src != SourceFlag && src != SourceEnv {
		c.warnMissingProfile()
	}
	return value, src
}

// source names the layer viper took a value from, which viper does not
// tell: the highest layer that holds one.
func (c *Config) source(key string) Source {
	s, _ := Lookup(key)
	_, flagged := flagValue(c.flags, s.Flag)
	for _, layer := range []struct {
		holds bool
		src   Source
	}{
		{c.overrides[key], SourceOverride}, {flagged, SourceFlag}, {s.Env != "" && c.getenv(s.Env) != "", SourceEnv},
		{c.v.InConfig(key), SourceProfile}, {s.Default != "", SourceDefault},
	} {
		if layer.holds {
			return layer.src
		}
	}
	return SourceNone
}

// warnMissingProfile warns, once, when a value is looked for in a profile
// that --profile or TESTCTL_PROFILE named but the file lacks: a mistyped
// --profile would otherwise fall back in silence.
func (c *Config) warnMissingProfile() {
	_, inFile := c.file.Profiles[c.profile]
	src := c.source(KeyCurrentProfile)
	if inFile || (src != SourceFlag && src != SourceEnv) || c.newProfile || c.warn == nil {
		return
	}
	c.warnMissingOnce.Do(func() {
		names, where := strings.Join(c.file.ProfileNames(), ", "), c.path
		if names == "" {
			names = "none"
		}
		if where == "" {
			where = "the config file"
		}
		fmt.Fprintf(c.warn, "warning: profile %q is not in %s (yet); known profiles: %s\n", c.profile, where, names)
	})
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
func (c *Config) Override(key, value string) {
	c.overrides[key] = true
	c.v.Set(key, value)
}
