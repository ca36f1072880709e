package appready_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/appready"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/exitcode"
)

func newWaiter() (*appready.Waiter, *clock.Fake, *[]string) {
	fake := clock.NewFake(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	var mu sync.Mutex
	lines := &[]string{}
	return &appready.Waiter{Clock: fake, Progress: func(l string) {
		mu.Lock()
		defer mu.Unlock()
		*lines = append(*lines, l)
	}}, fake, lines
}

// A preview that answers 503 while it builds, then 200: ready after two
// 200s in a row, with backoff between the tries, on the fake clock; the
// key never reaches it.
func TestReadyAfterTwoSuccessesInARow(t *testing.T) {
	var n atomic.Int32
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the app got an Authorization header")
		}
		switch n.Add(1) {
		case 1, 2, 4: // 3 is a lone success between two failures
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			w.WriteHeader(http.StatusOK)
		}
	}))
	defer app.Close()
	w, fake, lines := newWaiter()
	start := fake.Now()
	if err := w.Wait(context.Background(), []string{app.URL + "/?token=s3cr3t-bypass-value"}, start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := n.Load(); got != 6 {
		t.Errorf("asked %d times, want 6 (503, 503, 200, 503, 200, 200)", got)
	}
	slept, sleeps := fake.Slept()
	if sleeps != 5 || slept < 5*time.Second {
		t.Errorf("slept %s in %d pauses, want backoff", slept, sleeps)
	}
	all := strings.Join(*lines, "\n")
	if strings.Contains(all, "s3cr3t") || !strings.Contains(all, "?token=***") {
		t.Errorf("progress shows the query's value, or not the redacted URL:\n%s", all)
	}
	if !strings.Contains(all, "HTTP 503") || !strings.Contains(all, "is ready") {
		t.Errorf("progress:\n%s", all)
	}
}

// A protection's login (401, or a redirect to another origin) is not
// ready, named, and after the deadline exit 7.
func TestProtectedIsNotReady(t *testing.T) {
	login := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer login.Close()
	for name, tc := range map[string]struct {
		handler http.HandlerFunc
		want    string
	}{
		"401": {func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) }, "HTTP 401: a protection asks for a login"},
		"403": {func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) }, "HTTP 403"},
		"off origin": {func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, login.URL+"/sso?next=secret-next-value", http.StatusFound)
		}, "redirected off its origin, to " + login.URL + "/sso "},
	} {
		t.Run(name, func(t *testing.T) {
			app := httptest.NewServer(tc.handler)
			defer app.Close()
			w, fake, lines := newWaiter()
			err := w.Wait(context.Background(), []string{app.URL}, fake.Now().Add(2*time.Minute))
			nr, ok := errors.AsType[*appready.NotReadyError](err)
			if !ok || exitcode.Of(err) != exitcode.Timeout {
				t.Fatalf("err = %v, want a NotReadyError (exit 7)", err)
			}
			if !strings.Contains(nr.Why, tc.want) || !strings.Contains(err.Error(), "nothing was started") {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			if strings.Contains(strings.Join(*lines, "\n")+err.Error(), "secret-next-value") {
				t.Error("the redirect's query is shown")
			}
			if len(*lines) == 0 {
				t.Error("no progress")
			}
			if nr.Waited > 2*time.Minute {
				t.Errorf("waited %s, past the deadline", nr.Waited)
			}
		})
	}
}

// A redirect within the origin is followed, with the cookie the first
// answer set (as a bypass token's ?x-vercel-set-bypass-cookie does).
func TestSameOriginRedirectWithCookie(t *testing.T) {
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("bypass") != "" {
			http.SetCookie(w, &http.Cookie{Name: "bypass", Value: "ok", Path: "/"})
			http.Redirect(w, r, "/", http.StatusTemporaryRedirect)
			return
		}
		if c, err := r.Cookie("bypass"); err != nil || c.Value != "ok" {
			http.Redirect(w, r, "https://login.example/", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer app.Close()
	w, fake, _ := newWaiter()
	if err := w.Wait(context.Background(), []string{app.URL + "/?bypass=tok"}, fake.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
}

// Nothing listening: not ready, with the cause, and the wait stops at the
// deadline.
func TestConnectionRefused(t *testing.T) {
	app := httptest.NewServer(http.NotFoundHandler())
	u := app.URL
	app.Close()
	w, fake, _ := newWaiter()
	err := w.Wait(context.Background(), []string{u}, fake.Now().Add(20*time.Second))
	if nr, ok := errors.AsType[*appready.NotReadyError](err); !ok || !strings.Contains(nr.Why, "cannot connect") || nr.Waited > 20*time.Second {
		t.Fatalf("err = %v", err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.example/p?x-vercel-protection-bypass=abc&x-vercel-set-bypass-cookie=true#f": "https://a.example/p?x-vercel-protection-bypass=***&x-vercel-set-bypass-cookie=***#f",
		"https://a.example/p":        "https://a.example/p",
		"https://a.example/?flag&t=": "https://a.example/?flag&t=***",
	} {
		if got := appready.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	secrets := appready.Secrets("https://a.example/?t=abc%2Fdefghij&s=true")
	if strings.Join(secrets, " ") != "abc%2Fdefghij abc/defghij" {
		t.Errorf("Secrets = %q", secrets)
	}
	r := strings.NewReplacer(appready.Replacements([]string{"https://a.example/?t=abcdefghij&s=true"})...)
	if got := r.Replace(`{"url":"https://a.example/?t=abcdefghij\u0026s=true"} abcdefghij`); got != `{"url":"https://a.example/?t=***\u0026s=***"} ***` {
		t.Errorf("replaced: %s", got)
	}
}
