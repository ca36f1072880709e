package githubrest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func env(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

func TestNewRefusesWhatWouldLeakTheToken(t *testing.T) {
	for base, want := range map[string]string{
		"http://ghe.example.com/api/v3": "plain http: the token would travel in clear",
		"https://u:p@api.github.com":    "carries credentials",
		"ftp://api.github.com":          "not an http(s) address",
	} {
		_, err := New(env(map[string]string{"GITHUB_API_URL": base, "GITHUB_TOKEN": "t"}), "o/r", nil, time.Now)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", base, err, want)
		}
	}
	for _, repo := range []string{"o", "o/r/x", "../r", "o/r?x", "o/%2e%2e"} {
		if _, err := New(env(nil), repo, nil, time.Now); err == nil {
			t.Errorf("repository %q accepted", repo)
		}
	}
}

func TestGetReadsRateLimitsAndRedactsTheToken(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	const token = "ghs_secret0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/repos/o/r/limited":
			w.Header().Set("X-Ratelimit-Remaining", "0")
			w.Header().Set("X-Ratelimit-Reset", "1796644920") // 2026-12-07T12:02:00Z
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"API rate limit exceeded"}`))
		case "/repos/o/r/echo":
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"Bad credentials: ` + r.Header.Get("Authorization") + `"}`))
		case "/repos/o/r/away":
			http.Redirect(w, r, "https://elsewhere.example.com/x", http.StatusFound)
		default:
			_, _ = w.Write([]byte(`{"ok":true}`))
		}
	}))
	defer srv.Close()
	g, err := New(env(map[string]string{"GITHUB_API_URL": srv.URL, "GITHUB_TOKEN": token}), "o/r", nil, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out struct{ OK bool }
	if err := g.Get(ctx, "/fine", nil, &out); err != nil || !out.OK {
		t.Fatalf("%v %+v", err, out)
	}
	var ge *Error
	if err := g.Get(ctx, "/limited", nil, &out); !errors.As(err, &ge) || !ge.RateLimited || ge.Wait != 2*time.Minute {
		t.Errorf("a primary rate limit: %v (%+v), want a wait of 2m", err, ge)
	}
	if err := g.Get(ctx, "/echo", nil, &out); err == nil || strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "[REDACTED]") {
		t.Errorf("the token in an error: %v", err)
	}
	if err := g.Get(ctx, "/away", nil, &out); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Errorf("a redirect elsewhere: %v", err)
	}
}
