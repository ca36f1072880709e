package e2e_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// hostileCommands are the commands that read the service, each with the
// route it calls.
var hostileCommands = []struct {
	name string
	args []string
}{
	{"run get", []string{"run", "get", "r1"}},
	{"run list", []string{"run", "list"}},
	{"run start", []string{"run", "start", "--plan", "pln_x"}},
	{"run wait", []string{"run", "wait", "r1", "--interval", "1s", "--timeout", "10m"}},
	{"testcase list", []string{"testcase", "list"}},
	{"testcase create", []string{"testcase", "create", "--name", "Smoke", "--goal", "Open the page", "--app", "app_x"}},
	{"logs", []string{"logs", "r1-0", "--kind", "console"}},
	{"tunnel status", []string{"tunnel", "status", "runner-1"}},
	{"api", []string{"api", "/v1/applications"}},
}

// wellFormed answers each route with a valid document carrying values no
// enum of the spec has and fields the spec does not name: a newer service.
func wellFormed(r *http.Request) string {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && p == "/v1/run":
		return `{"success":true,"run":{"id":"run_1","shortId":"r1","url":"https://app.invalid/runs/r1","testCount":2,"priority":"URGENT"},"queuePosition":3}`
	case p == "/v1/run":
		return `{"runs":[{"shortId":"r1","status":"PAUSED","result":null,"trigger":"CRON","branch":"main","createdAt":"2026-11-21T08:00:00Z","passedCount":1,"shard":4}],"total":1,"limit":20,"offset":0,"cursor":"abc"}`
	case strings.HasPrefix(p, "/v1/run/"):
		return `{"id":"run_1","shortId":"r1","status":"COMPLETED","result":"FLAKY","costUsd":1.5,"runTestCases":[` +
			`{"id":"c0","shortId":"r1-0","name":"Login","status":"QUARANTINED","result":"","resultTitle":"held back","retries":2},` +
			`{"id":"c1","shortId":"r1-1","name":"Checkout","status":"COMPLETED","result":"FLAKY","resultTitle":"passed on retry"}]}`
	case r.Method == http.MethodPost && p == "/v1/test-cases":
		return `{"id":"5a4db0ff-0000-4000-8000-0000000000ff","generationStatus":"QUEUED","isEnabled":false,"eta":"5m"}`
	case p == "/v1/test-cases":
		return `{"testCases":[{"id":"5a4db001-0000-4000-8000-000000000001","name":"Login","isEnabled":true,"labels":["smoke"],` +
			`"classification":"EXPLORATORY","applicationShortId":"app_x","createdAt":"2026-11-20T08:00:00Z",` +
			`"lastRun":{"shortId":"r1","status":"COMPLETED","result":"FLAKY","completedAt":"2026-11-21T08:00:00Z"},"owner":"qa"}],"total":1,"limit":20,"offset":0}`
	case strings.HasSuffix(p, "/logs"):
		return `{"runTestCaseShortId":"r1-0","kind":"console","totalMatched":1,"returned":1,"hasMore":false,` +
			`"console":[{"level":"fatal","message":"kernel panic in page","relativeTimestampSeconds":3,"thread":"main"}],"sampling":0.5}`
	case strings.HasSuffix(p, "/status"):
		return `{"status":"overloaded","connections":9,"hostnames":[{"localPort":3000,"url":"https://t.invalid","protocol":"quic"}],"region":"eu"}`
	case p == "/v1/applications":
		return `{"applications":[{"shortId":"app_x","name":"Web","kind":"FLAKY"}]}`
	}
	return `{"message":"no such operation"}`
}

// hostileScenario is one way a service or a proxy in front of it can
// answer badly.
type hostileScenario struct {
	name  string
	serve func(w http.ResponseWriter, r *http.Request)
	flags []string
	// code is the exit code of the commands that decode JSON; apiCode of
	// `testctl api`, which passes a 2xx body on as received; waitCode of
	// run wait, which polls through unreadable answers until it gives up.
	code, apiCode, waitCode int
	// reason must be on stderr whenever a command exits 6.
	reason string
	// only, when set, limits the scenario to these commands.
	only []string
	// stdout is what each command must print, by command name.
	stdout map[string]string
}

func hostileScenarios() []hostileScenario {
	const html = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>" +
		"<body>\x1b]0;pwned\x07\x1b[2J<h1>Bad Gateway</h1><p>nginx</p></body></html>"
	return []hostileScenario{
		{name: "truncated JSON", serve: func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, `{"id":"run_1","shortId":"r1","status":"RUNN`)
		}, code: 6, apiCode: 0, waitCode: 6, reason: "unreadable response"},
		{name: "HTML error page", serve: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(html))
		}, code: 6, apiCode: 6, waitCode: 6, reason: "HTTP 502"},
		{name: "HTML page with 200", serve: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(html))
		}, code: 6, apiCode: 0, waitCode: 6, reason: "unreadable response"},
		{name: "200 with an empty body", serve: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
		}, code: 6, apiCode: 0, waitCode: 6, reason: "unreadable response"},
		{name: "JSON error with escape sequences", serve: func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 503, `{"message":"\u001b]0;pwned\u0007down \u001b[2J\u009b31m for \u202emaintenance"}`)
		}, code: 6, apiCode: 6, waitCode: 6, reason: "HTTP 503"},
		{name: "body over 64 MiB, declared", serve: serveHuge(true), code: 6, apiCode: 6, waitCode: 6, reason: "larger than 64 MiB"},
		// Streamed without a length, it is read up to the limit: the
		// costliest case, so three commands stand for the others.
		{name: "body over 64 MiB, streamed", serve: serveHuge(false), code: 6, apiCode: 6, waitCode: 6, reason: "larger than 64 MiB",
			only: []string{"run get", "run start", "api"}},
		{name: "body slower than --http-timeout", serve: serveSlow, flags: []string{"--http-timeout", "200ms"},
			code: 6, apiCode: 6, waitCode: 6, reason: "Client.Timeout"},
		{name: "unknown enum values and fields", serve: func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, wellFormed(r))
		}, code: 0, apiCode: 0, waitCode: 1, stdout: map[string]string{
			"run get": "FLAKY", "run list": "PAUSED", "run start": "r1", "run wait": "FLAKY", "testcase list": "FLAKY",
			"testcase create": "5a4db0ff", "logs": "fatal", "tunnel status": "overloaded", "api": `"kind":"FLAKY"`,
		}},
	}
}

// serveHuge sends an 80 MiB JSON document, with its length or streamed.
func serveHuge(declared bool) func(w http.ResponseWriter, r *http.Request) {
	const size = 80 << 20
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if declared {
			w.Header().Set("Content-Length", strconv.Itoa(size))
		}
		w.WriteHeader(200)
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		_, _ = w.Write([]byte(`{"padding":"`))
		for i := 0; i < size>>20-1; i++ {
			if _, err := w.Write(chunk); err != nil {
				return // the client gave up, as it should
			}
		}
		_, _ = w.Write(append(bytes.Repeat([]byte("a"), 1<<20-14), `"}`...))
	}
}

// serveSlow sends the headers and the start of a body, then stalls until
// the client gives up: a command that did not apply --http-timeout would
// never return (runGuarded fails it).
func serveSlow(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	_, _ = w.Write([]byte(`{"id":"run_1",`))
	w.(http.Flusher).Flush()
	stall(r)
}

// TestHostileResponses runs every command that reads the service against
// answers a broken service or proxy gives. Each must end with the
// documented exit code (6: unreadable or failed; unknown enum values and
// fields are not errors and are printed), say so on stderr without any
// terminal control character, and never crash.
func TestHostileResponses(t *testing.T) {
	for _, sc := range hostileScenarios() {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel() // the slow scenario spends its time waiting
			srv := httptest.NewServer(http.HandlerFunc(sc.serve))
			t.Cleanup(srv.Close)
			e := cmdtest.New(t)
			e.Setenv("TESTCTL_BASE_URL", srv.URL)
			for _, c := range hostileCommands {
				if sc.only != nil && !slices.Contains(sc.only, c.name) {
					continue
				}
				t.Run(c.name, func(t *testing.T) {
					want := sc.code
					switch c.name {
					case "api":
						want = sc.apiCode
					case "run wait":
						want = sc.waitCode
					}
					r := runGuarded(t, e, append(append([]string{}, c.args...), sc.flags...)...)
					checkNoPanic(t, r)
					if r.Code != want {
						t.Fatalf("exit %d, want %d\nstdout:\n%.2000s\nstderr:\n%.2000s", r.Code, want, r.Stdout, r.Stderr)
					}
					checkSafeText(t, "stderr", r.Stderr)
					if want == 6 {
						if !strings.HasPrefix(r.Stderr, "error: ") && !strings.Contains(r.Stderr, "\nerror: ") {
							t.Errorf("no error message on stderr:\n%s", r.Stderr)
						}
						if !strings.Contains(r.Stderr, sc.reason) {
							t.Errorf("stderr does not say why (%q):\n%.2000s", sc.reason, r.Stderr)
						}
					}
					if w := sc.stdout[c.name]; w != "" && !strings.Contains(r.Stdout, w) {
						t.Errorf("stdout lacks %q:\n%s", w, r.Stdout)
					}
				})
			}
		})
	}
}

// checkSafeText fails when s holds a byte or rune a terminal would act on:
// ESC, BEL, other C0 controls but newline and tab, DEL, C1 controls, bidi
// overrides. Nor may the remains of a service's sequence show ("]0;pwned"
// after its ESC was dropped); quoted or escaped (\x1b]0;pwned in an
// excerpt, \u001b… in JSON, \e… in YAML) a sequence is inert text.
func checkSafeText(t *testing.T, what, s string) {
	t.Helper()
	for i, r := range s {
		bad := (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
		if bad {
			t.Errorf("%s holds control %U at byte %d: %q", what, r, i, around(s, i))
			return
		}
	}
	visible := inertSequences.ReplaceAllString(s, "")
	for _, leak := range []string{"pwned", "[2J", "evil.example"} {
		if i := strings.Index(visible, leak); i >= 0 {
			t.Errorf("%s holds the remains of a service escape sequence %q: %q", what, leak, around(visible, i))
		}
	}
}

// inertSequences matches the test's escape sequences in their quoted or
// escaped forms.
var inertSequences = regexp.MustCompile(`(?i)(\\u001b|\\x1b|\\e)(\]0;pwned|\]8;;https://evil\.example/phish|\[2J|\[H|\[5;41m)|` +
	`(\\u009d|\\x9d)0;c1pwned|(\\u009b|\\x9b)2J`)

func around(s string, i int) string {
	return s[max(0, i-40):min(len(s), i+40)]
}
