package start

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/appready"
)

// appSpecKeys are the keys an --app spec takes after the application id, in
// the order they are documented.
const appSpecKeys = "env, url, name, build, device"

// AppSpecSyntax is the --app value format, for help texts and errors.
const AppSpecSyntax = "app_ID[,env=env_ID][,url=URL][,name=NAME][,build=build_ID][,device=preset_ID]"

var (
	// specKeyPattern recognises the start of a "key=value" segment. A comma
	// not followed by one is part of a free-text value (url, name): URLs
	// may hold commas in their query.
	specKeyPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*[A-Za-z][A-Za-z0-9_-]*\s*=`) })
	// Short ids are a prefix and a non-empty id without blanks or the
	// separators of the spec syntax.
	appIDPattern    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^app_[^\s,=]+$`) })
	envIDPattern    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^env_[^\s,=]+$`) })
	buildIDPattern  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^build_[^\s,=]+$`) })
	presetIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^preset_[^\s,=]+$`) })
)

// ParseAppSpec reads one --app value into an applications entry of the
// start-run body. Errors name the part of the spec that is wrong; the caller
// adds the flag.
func ParseAppSpec(spec string) (api.RunApplication, error) {
	var app api.RunApplication
	segments := strings.Split(spec, ",")
	app.ApplicationShortID = strings.TrimSpace(segments[0])
	if app.ApplicationShortID == "" {
		return app, fmt.Errorf("missing application id: expected %s", AppSpecSyntax)
	}
	if strings.Contains(app.ApplicationShortID, "=") {
		return app, fmt.Errorf("the spec must start with the application id (app_…), not %q", app.ApplicationShortID)
	}
	if !appIDPattern().MatchString(app.ApplicationShortID) {
		return app, fmt.Errorf("%q is not an application short id: expected app_<id>", app.ApplicationShortID)
	}

	values := map[string]string{}
	var last string // the key whose value a comma-continued segment extends
	for _, seg := range segments[1:] {
		if !specKeyPattern().MatchString(seg) {
			if last == "url" || last == "name" {
				values[last] += "," + seg
				continue
			}
			return app, fmt.Errorf("%q is not KEY=VALUE (keys: %s)", strings.TrimSpace(seg), appSpecKeys)
		}
		k, v, _ := strings.Cut(seg, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !slices.Contains(strings.Split(appSpecKeys, ", "), k) {
			return app, fmt.Errorf("unknown key %q (valid keys: %s)%s", k, appSpecKeys, commaHint(last))
		}
		if _, dup := values[k]; dup {
			return app, fmt.Errorf("key %q given twice%s", k, commaHint(last))
		}
		values[k] = v
		last = k
	}
	for k, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			return app, fmt.Errorf("empty value for %s=", k)
		}
		values[k] = v
	}

	env := api.RunEnvironment{ShortID: values["env"], URL: values["url"], Name: values["name"], ApplicationBuildShortID: values["build"]}
	if env != (api.RunEnvironment{}) {
		app.Environment = &env
	}
	app.DevicePresetShortID = values["device"]
	return app, ValidateApplication(app)
}

// commaHint explains a segment that may be a comma inside the preceding
// url or name value (a query like ?a=1,b=2): a spec cannot tell, a JSON
// file can.
func commaHint(last string) string {
	if last != "url" && last != "name" {
		return ""
	}
	return fmt.Sprintf("; if the comma is part of the %s value, give the application in a JSON file with --applications FILE", last)
}

// ValidateApplication checks the ids and the URL of an applications entry,
// whether it came from --app or from an --applications file, so that a typo
// is reported before a run is started. Messages use the spec's key names.
func ValidateApplication(app api.RunApplication) error {
	if !appIDPattern().MatchString(app.ApplicationShortID) {
		if app.ApplicationShortID == "" {
			return fmt.Errorf("applicationShortId is required")
		}
		return fmt.Errorf("%q is not an application short id: expected app_<id>", app.ApplicationShortID)
	}
	if p := app.DevicePresetShortID; p != "" && !presetIDPattern().MatchString(p) {
		return fmt.Errorf("device %q is not a device preset short id: expected preset_<id>", p)
	}
	env := app.Environment
	if env == nil {
		return nil
	}
	if env.ShortID != "" && !envIDPattern().MatchString(env.ShortID) {
		return fmt.Errorf("env %q is not an environment short id: expected env_<id>", env.ShortID)
	}
	if b := env.ApplicationBuildShortID; b != "" && !buildIDPattern().MatchString(b) {
		return fmt.Errorf("build %q is not an application build short id: expected build_<id>", b)
	}
	if env.URL != "" {
		u, err := url.Parse(env.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("url %q is not an absolute http(s) URL like https://staging.example.com", appready.Redact(env.URL))
		}
	}
	return nil
}
