package api

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
)

// parse runs the command line through NewCmdAPI and returns the Options
// the run function would have received.
func parse(t *testing.T, stdin string, args ...string) (*Options, error) {
	t.Helper()
	return flagtest.Parse(NewCmdAPI, stdin, args...)
}

func TestMethodFieldsAndBody(t *testing.T) {
	o, err := parse(t, "", "/v1/applications")
	if err != nil || o.Method != "GET" || o.Body != nil || len(o.Query) != 0 || o.Path != "/v1/applications" {
		t.Errorf("plain GET: %v %+v", err, o)
	}
	o, err = parse(t, "", "-X", "get", "/v1/run", "-f", "limit=5", "-f", "status=COMPLETED", "-f", "issues=true")
	if err != nil || o.Method != "GET" || o.Body != nil || o.Query.Encode() != "issues=true&limit=5&status=COMPLETED" {
		t.Errorf("GET with fields: %v %+v", err, o)
	}
	// Fields without -X make a POST with a typed JSON body.
	o, err = parse(t, "", "v1/run/r1", "-f", "failedOnly=true", "-f", "n=3", "-f", "ratio=1.5e3", "-f", "x=null",
		"-f", "code=007", "--raw-field", "s=true")
	if err != nil || o.Method != "POST" || len(o.Query) != 0 {
		t.Fatalf("POST: %v %+v", err, o)
	}
	if string(o.Body) != `{"code":"007","failedOnly":true,"n":3,"ratio":1.5e3,"s":"true","x":null}` {
		t.Errorf("body %s", o.Body)
	}
	o, err = parse(t, `{"failedOnly": true}`, "/v1/run/r1", "--input", "-", "-f", "projectShortId=proj_x")
	if err != nil || o.Method != "POST" || string(o.Body) != `{"failedOnly": true}` || o.Query.Get("projectShortId") != "proj_x" {
		t.Errorf("--input - with fields: %v %+v", err, o)
	}
	file := filepath.Join(t.TempDir(), "body.json")
	os.WriteFile(file, []byte(`[1, 2]`), 0o600)
	o, err = parse(t, "", "/v1/x", "--input", file, "-X", "put")
	if err != nil || o.Method != "PUT" || string(o.Body) != `[1, 2]` {
		t.Errorf("--input FILE: %v %+v", err, o)
	}
	o, err = parse(t, "", "/v1/remote-tunnels/r1", "-X", "DELETE", "-f", "force=true")
	if err != nil || o.Body != nil || o.Query.Get("force") != "true" {
		t.Errorf("DELETE fields go in the query: %v %+v", err, o)
	}
}

func TestFlagErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(file, []byte(`{"a":`), 0o600)
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"/v1/x", "-X", "FETCH"}, "-X"},
		{"", []string{"/v1/x", "-f", "novalue"}, "-f/--field"},
		{"", []string{"/v1/x", "-f", "=v"}, "-f/--field"},
		{"", []string{"/v1/x", "--raw-field", "k"}, "--raw-field"},
		{"", []string{"/v1/x", "--input", file}, "not valid JSON"},
		{"{nope", []string{"/v1/x", "--input", "-"}, "--input - is not valid JSON"},
		{"  \n", []string{"/v1/x", "--input", "-"}, "--input - is empty"},
		{"", []string{"/v1/x", "--input", filepath.Join(t.TempDir(), "missing.json")}, "--input"},
		{"{}", []string{"/v1/x", "--input", "-", "-X", "GET"}, "--input"},
	} {
		_, err := parse(t, tc.stdin, tc.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}

func TestNormalizePath(t *testing.T) {
	const base = "http://127.0.0.1:8787"
	for raw, want := range map[string]string{
		"/v1/run":                                 "/v1/run",
		"v1/run":                                  "/v1/run",
		"/v1/run?limit=5&status=RUNNING":          "/v1/run limit=5&status=RUNNING",
		"http://127.0.0.1:8787/v1/outbound-ips":   "/v1/outbound-ips",
		"/v1/applications/app_x%20y/environments": "/v1/applications/app_x%20y/environments",
	} {
		p, q, err := normalizePath(raw, base)
		got := p
		if len(q) > 0 {
			got += " " + q.Encode()
		}
		if err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", raw, got, err, want)
		}
	}
	for _, raw := range []string{"/run", "run", "/v1", "/v2/run", "/v1/../admin", "/v1/./run", "/v1//run",
		"https://evil.example/v1/run", "http://127.0.0.1:9999/v1/run", "//evil.example/v1/run",
		"http://user:pw@127.0.0.1:8787/v1/run", "/v1/run#x", "/v1/a b", "/v1/a\x1b[2J",
		// Encoded, the same: a server or proxy may decode before it resolves.
		"/v1/%2e%2e/%2e%2e/admin", "/v1/%2E%2E/admin", "/v1/run/%2e", "/v1/.%2e/admin", "/v1%2f..%2fadmin",
		"/v1/applications/app_x%2Fy/environments", "/v1/run/r1%5c..%5cadmin", "/v1/run/r1%00", "/v1/run/r1%0d%0aX: y"} {
		if _, _, err := normalizePath(raw, base); err == nil {
			t.Errorf("%q accepted", raw)
		}
	}
}

func TestTypedFields(t *testing.T) {
	for kv, want := range map[string]any{
		"a=true": true, "a=false": false, "a=null": nil, "a=42": json.Number("42"), "a=-1.5": json.Number("-1.5"),
		"a=01": "01", "a=+1": "+1", "a=0x10": "0x10", "a=": "", "a=a=b": "a=b", "a=True": "True", "a=1e400": json.Number("1e400"),
	} {
		f, err := parseField("-f", kv, true)
		if err != nil || f.key != "a" || f.value != want {
			t.Errorf("%s: %#v %v, want %#v", kv, f.value, err, want)
		}
	}
}

// --input takes a body of up to 16 MiB whole; one byte more is refused,
// never cut to a prefix that may still be valid JSON.
func TestInputLimit(t *testing.T) {
	doc := `{"failedOnly": true}`
	atLimit := doc + strings.Repeat(" ", maxInputBytes-len(doc))
	file := filepath.Join(t.TempDir(), "body.json")
	for _, tc := range []struct {
		name, input string
		wantErr     string
	}{
		{"at the limit", atLimit, ""},
		{"over the limit", atLimit + " ", "larger than 16 MiB, the most testctl sends; nothing was sent"},
	} {
		if err := os.WriteFile(file, []byte(tc.input), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, src := range []struct{ stdin, arg string }{{tc.input, "-"}, {"", file}} {
			o, err := parse(t, src.stdin, "/v1/run/r1", "--input", src.arg)
			switch {
			case tc.wantErr == "" && (err != nil || len(o.Body) != len(tc.input)):
				t.Errorf("%s, --input %s: %v, %d bytes", tc.name, src.arg, err, len(o.Body))
			case tc.wantErr != "":
				var fe *exitcode.FlagError
				if !errors.As(err, &fe) || !strings.Contains(err.Error(), "--input "+src.arg+" is "+tc.wantErr) {
					t.Errorf("%s, --input %s: %v", tc.name, src.arg, err)
				}
			}
		}
	}
}
