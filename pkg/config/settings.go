// Package config resolves testctl's settings: flag > environment > the active
// profile of the config file > default, and the API key last from the OS
// keyring (Config.APIKey), asked only when none of those holds one. The file
// is read and written as YAML with named profiles.
//
// One viper per invocation (Load) resolves every value, and nothing beside it
// does. viper's layers, highest first, are Set, flag, environment, config and
// default; the active profile is the config layer (MergeConfigMap, as hcloud
// merges its active context) and the defaults are SetDefault's. The
// environment and the flags sit one layer above where BindEnv and BindPFlag
// would put them:
//
//   - viper's environment layer reads os.LookupEnv and nothing else (v1.21
//     has no option to read another: spf13/viper#1823), while the tests give
//     each invocation, in parallel, its own environment through
//     Options.LookupEnv. So each variable is bound in the flag layer instead,
//     with BindFlagValue, as an envValue that reads LookupEnv; as with
//     BindEnv (without AllowEmptyEnv), an empty variable is no value.
//   - The flag layer holds one value per key, so the flags take the layer
//     above it: Load Sets each flag given (Changed), which is what BindPFlag
//     would let win; viper reads a flag not Changed only when no layer holds
//     a value, and SetDefault gives every key one. --sandbox's Override Sets
//     the same layer, after the flags.
//
// viper does not say which layer a value came from: GetWithSource looks it
// up (Config.source: the highest layer that holds a value, from the flag's
// Changed, the variable, the profile's key), without resolving it again.
package config

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Keys of the settings, as written in the config file.
const (
	KeyAPIKey         = "api_key"
	KeyBaseURL        = "base_url"
	KeyLegacyBaseURL  = "legacy_base_url"
	KeyProject        = "project"
	KeyOutput         = "output"
	KeyHTTPTimeout    = "http_timeout"
	KeyCurrentProfile = "current_profile"
)

// Setting describes one setting: where it can come from and what it accepts.
type Setting struct {
	Key      string
	Flag     string // global flag name, "" if none
	Env      string // environment variable, "" if none
	Default  string
	Help     string
	Validate func(string) error
}

// DefaultProfile is used when no profile is chosen anywhere.
const DefaultProfile = "default"

// Settings lists every setting of the contract's table that has a config key.
func Settings() []Setting {
	return []Setting{
		{Key: KeyAPIKey, Flag: "api-key", Env: "TESTCTL_API_KEY", Help: "API key, sent as a Bearer token (stored only by `testctl auth login`)"},
		{Key: KeyBaseURL, Flag: "base-url", Env: "TESTCTL_BASE_URL", Help: "service base URL, without /v1", Validate: ValidateBaseURL},
		{Key: KeyLegacyBaseURL, Flag: "legacy-base-url", Env: "TESTCTL_LEGACY_BASE_URL", Help: "base URL of the deprecated legacy address", Validate: ValidateBaseURL},
		{Key: KeyProject, Flag: "project", Env: "TESTCTL_PROJECT", Help: "project short id (projectShortId), needed with organization-scoped keys", Validate: ValidateProject},
		{Key: KeyOutput, Flag: "output", Env: "TESTCTL_OUTPUT", Default: "table", Help: "output format: table, json or yaml", Validate: validateOutput},
		{Key: KeyHTTPTimeout, Flag: "http-timeout", Default: "30s", Help: "timeout of one HTTP request", Validate: validateTimeout},
		{Key: KeyCurrentProfile, Flag: "profile", Env: "TESTCTL_PROFILE", Default: DefaultProfile, Help: "the active profile", Validate: ValidateProfileName},
	}
}

// Lookup returns the setting with the given key.
func Lookup(key string) (Setting, bool) {
	for _, s := range Settings() {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// KeyNames lists the keys, for error messages and completion.
func KeyNames() []string {
	var names []string
	for _, s := range Settings() {
		names = append(names, s.Key)
	}
	return names
}

var (
	projectPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^proj(-.+_.+|_.+)$`) })
	profilePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`) })
)

// ValidateBaseURL accepts an absolute http(s) URL without the /v1 suffix.
func ValidateBaseURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL like https://api.example.com", s)
	}
	if strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/v1") {
		return fmt.Errorf("%q ends in /v1: give the base URL without it; testctl adds /v1 itself", s)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		// Not shown: they may be a token.
		bare := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
		return fmt.Errorf("the URL must not carry credentials, a query or a fragment (not shown here: they may be a secret); give %s", bare.String())
	}
	return nil
}

// ValidateProject checks a projectShortId against the service's pattern.
func ValidateProject(s string) error {
	if !projectPattern().MatchString(s) {
		return fmt.Errorf("%q is not a project short id: expected proj_<id> or proj-<slug>_<id>", s)
	}
	return nil
}

// ValidateProfileName keeps profile names usable as YAML keys and in shells.
func ValidateProfileName(s string) error {
	if !profilePattern().MatchString(s) {
		return fmt.Errorf("%q is not a valid profile name: use letters, digits, '-', '_' and '.'", s)
	}
	return nil
}

func validateOutput(s string) error {
	switch s {
	case "table", "json", "yaml":
		return nil
	}
	return fmt.Errorf("%q is not an output format: use table, json or yaml", s)
}

func validateTimeout(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("%q is not a positive duration like 30s or 2m", s)
	}
	return nil
}
