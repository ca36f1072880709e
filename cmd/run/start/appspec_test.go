package start

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func TestParseAppSpec(t *testing.T) {
	tests := []struct {
		spec string
		want api.RunApplication
	}{
		{"app_web", api.RunApplication{ApplicationShortID: "app_web"}},
		{"app_web,device=preset_pixel", api.RunApplication{ApplicationShortID: "app_web", DevicePresetShortID: "preset_pixel"}},
		{"app_web,env=env_staging,url=https://staging.example.com,name=Staging,build=build_42,device=preset_desktop",
			api.RunApplication{ApplicationShortID: "app_web", DevicePresetShortID: "preset_desktop",
				Environment: &api.RunEnvironment{ShortID: "env_staging", URL: "https://staging.example.com", Name: "Staging", ApplicationBuildShortID: "build_42"}}},
		// Blanks around segments are ignored, key case too.
		{" app_web , ENV = env_staging ", api.RunApplication{ApplicationShortID: "app_web", Environment: &api.RunEnvironment{ShortID: "env_staging"}}},
		// Commas that do not start a KEY= segment belong to url and name.
		{"app_web,url=https://x.example.com/?a=1,2&b,name=Blue, green",
			api.RunApplication{ApplicationShortID: "app_web", Environment: &api.RunEnvironment{URL: "https://x.example.com/?a=1,2&b", Name: "Blue, green"}}},
		{"app_web,name=a=b", api.RunApplication{ApplicationShortID: "app_web", Environment: &api.RunEnvironment{Name: "a=b"}}},
	}
	for _, tt := range tests {
		got, err := ParseAppSpec(tt.spec)
		if err != nil {
			t.Errorf("ParseAppSpec(%q): %v", tt.spec, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseAppSpec(%q) = %+v (env %+v), want %+v", tt.spec, got, got.Environment, tt.want)
		}
	}
}

func TestParseAppSpecErrors(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"", "missing application id"},
		{",env=env_x", "missing application id"},
		{"env=env_x", "must start with the application id"},
		{"web", `"web" is not an application short id`},
		{"app_", "is not an application short id"},
		{"app_web,region=eu", `unknown key "region"`},
		{"app_web,region=eu", "env, url, name, build, device"},
		// A query holding a comma before KEY= reads as a new key: the error
		// names the way to pass such a value.
		{"app_web,url=https://x.example.com/?a=1,b=2", `unknown key "b" (valid keys: env, url, name, build, device); if the comma is part of the url value, give the application in a JSON file with --applications FILE`},
		{"app_web,name=a,url=b,url=https://x.example.com", `key "url" given twice; if the comma is part of the url value`},
		{"app_web,staging", `"staging" is not KEY=VALUE`},
		{"app_web,env=env_a,env=env_b", `key "env" given twice`},
		{"app_web,env=env_a,ENV=env_b", `key "env" given twice`},
		{"app_web,env=", "empty value for env="},
		{"app_web,name= ", "empty value for name="},
		{"app_web,env=staging", `env "staging" is not an environment short id`},
		{"app_web,build=42", `build "42" is not an application build short id`},
		{"app_web,device=pixel", `device "pixel" is not a device preset short id`},
		{"app_web,url=staging.example.com", `url "staging.example.com" is not an absolute http(s) URL`},
		{"app_web,url=ftp://x.example.com", "is not an absolute http(s) URL"},
		{"app_web,url=https://", "is not an absolute http(s) URL"},
	}
	for _, tt := range tests {
		_, err := ParseAppSpec(tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseAppSpec(%q) error = %v, want one containing %q", tt.spec, err, tt.want)
		}
	}
}

func TestValidateApplicationFromFile(t *testing.T) {
	if err := ValidateApplication(api.RunApplication{}); err == nil || !strings.Contains(err.Error(), "applicationShortId is required") {
		t.Errorf("empty entry: %v", err)
	}
	ok := api.RunApplication{ApplicationShortID: "app_web", Environment: &api.RunEnvironment{ShortID: "env_x"}}
	if err := ValidateApplication(ok); err != nil {
		t.Errorf("valid entry: %v", err)
	}
}

// formatAppSpec writes an entry back as a spec, for the round trip of the
// fuzz target.
func formatAppSpec(a api.RunApplication) string {
	parts := []string{a.ApplicationShortID}
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if e := a.Environment; e != nil {
		add("env", e.ShortID)
		add("url", e.URL)
		add("name", e.Name)
		add("build", e.ApplicationBuildShortID)
	}
	add("device", a.DevicePresetShortID)
	return strings.Join(parts, ",")
}

// FuzzParseAppSpec: --app values are typed by people and pasted from CI
// variables. Parsing never panics, an accepted spec always passes the same
// validation as a file entry, and writing it back parses to the same entry.
func FuzzParseAppSpec(f *testing.F) {
	for _, s := range []string{"app_web", "app_web,env=env_s,url=https://a.example/?x=1,2,name=N,build=build_1,device=preset_p",
		"app_web,env=", "app_x,,", "app_x,url=http://h,name=a,b=c", "=,=", "app_x,name=\x00\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		app, err := ParseAppSpec(spec)
		if err != nil {
			return
		}
		if err := ValidateApplication(app); err != nil {
			t.Fatalf("ParseAppSpec(%q) accepted an invalid entry: %v", spec, err)
		}
		if e := app.Environment; e != nil && *e == (api.RunEnvironment{}) {
			t.Fatalf("ParseAppSpec(%q) returned an empty environment", spec)
		}
		again, err := ParseAppSpec(formatAppSpec(app))
		if err != nil || !reflect.DeepEqual(again, app) {
			t.Fatalf("round trip of %q: %+v, %v; want %+v", spec, again, err, app)
		}
	})
}

// The patterns are compiled on first use, so that start-up pays only for those
// a command line evaluates; compiling each one here makes a mistyped pattern
// fail the tests rather than the first command that reaches it.
func TestPatternsCompile(t *testing.T) {
	for _, rx := range []func() *regexp.Regexp{planPattern, notifyTypePattern, specKeyPattern, appIDPattern, envIDPattern, buildIDPattern, presetIDPattern} {
		rx()
	}
}
