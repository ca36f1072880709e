package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// A key with characters JSON and URLs escape.
const escapingKey = "sk-LEAK/CHECK+1234567890"

// The forms a service or proxy may quote a key back in are redacted as the
// key itself is: JSON-escaped in an error's message, percent-encoded in a
// redirect's address, and a key pasted with a trailing space as the
// service saw it, trimmed.
func TestEchoedKeyInAnyFormIsRedacted(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		answer    func(w http.ResponseWriter, key string)
	}{
		{"JSON-escaped in a 400", escapingKey, func(w http.ResponseWriter, key string) {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"message":"bad key ` + strings.ReplaceAll(key, "/", `\/`) + `"}`))
		}},
		{"percent-encoded in a redirect", escapingKey, func(w http.ResponseWriter, key string) {
			w.Header().Set("Location", "https://elsewhere.example/login?token="+url.QueryEscape(key))
			w.WriteHeader(http.StatusFound)
		}},
		{"trailing space, echoed trimmed by a 401", "sk-LEAKCHECK-1234567890 ", func(w http.ResponseWriter, key string) {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"message":"invalid API key ` + key + `"}`))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				tc.answer(w, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			}))
			t.Cleanup(srv.Close)
			e := cmdtest.New(t)
			e.Setenv("TESTCTL_BASE_URL", srv.URL)
			e.Setenv("TESTCTL_API_KEY", tc.key)
			for _, args := range [][]string{{"run", "get", "r1"}, {"--debug", "run", "get", "r1"}} {
				r := e.Run(args...)
				if r.Code == 0 {
					t.Fatalf("%v: exit 0", args)
				}
				bare := strings.TrimSpace(tc.key)
				for _, form := range []string{bare, url.QueryEscape(bare), strings.ReplaceAll(bare, "/", `\/`), "LEAK"} {
					if strings.Contains(r.Output(), form) {
						t.Errorf("%v shows the key as %q:\n%s", args, form, r.Output())
					}
				}
			}
		})
	}
}

// A base URL that carries a token is refused without showing it.
func TestBaseURLWithATokenIsRefusedWithoutShowingIt(t *testing.T) {
	e := cmdtest.New(t)
	for _, base := range []string{"https://sk-LEAKCHECK-123456@api.example.com", "https://api.example.com/?token=sk-LEAKCHECK-123456"} {
		e.Setenv("TESTCTL_BASE_URL", base)
		r := e.Run("run", "get", "r1").Expect(t, 2)
		if strings.Contains(r.Stderr, "LEAKCHECK") || !strings.Contains(r.Stderr, "give https://api.example.com") {
			t.Errorf("%s:\n%s", base, r.Stderr)
		}
	}
}

// Only "localhost" and loopback addresses count as this machine for plain
// http: a name under .localhost may be resolved by DNS to anywhere, so the
// key is not sent to it in clear.
func TestKeyIsNotSentInClearToANameUnderLocalhost(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", "http://leak.localhost:1")
	r := e.Run("run", "get", "r1").Expect(t, 2)
	if !strings.Contains(r.Stderr, "--allow-insecure-http") {
		t.Errorf("stderr does not name the way out:\n%s", r.Stderr)
	}
}

// A config file the YAML library cannot place a value of (an api_key
// indented one level too far out) is refused without quoting the value.
func TestBrokenConfigFileDoesNotQuoteTheKey(t *testing.T) {
	e := cmdtest.New(t)
	for _, key := range []string{"sk-LEAKCHECK-1234567890", "sk-LEAK12"} {
		path := e.WriteFile("config.yaml", "profiles:\n  default:\n  api_key: "+key+"\n")
		e.Setenv("TESTCTL_CONFIG", path)
		r := e.Run("run", "get", "r1").Expect(t, 8)
		if strings.Contains(r.Stderr, "LEAK") || !strings.Contains(r.Stderr, "line 3") {
			t.Errorf("%s:\n%s", key, r.Stderr)
		}
	}
}
