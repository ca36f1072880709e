package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/clock"
)

// recorder is an httptest handler that answers from a script and records
// every request that reached it.
type recorder struct {
	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
	answer   func(n int, w http.ResponseWriter, r *http.Request)
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.requests = append(rec.requests, r)
	rec.bodies = append(rec.bodies, string(body))
	n := len(rec.requests)
	rec.mu.Unlock()
	rec.answer(n, w, r)
}

func (rec *recorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.requests)
}

func newTestClient(t *testing.T, answer func(n int, w http.ResponseWriter, r *http.Request)) (*Client, *recorder, *clock.Fake) {
	t.Helper()
	rec := &recorder{answer: answer}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	fake := clock.NewFake(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	c := &Client{
		BaseURL: srv.URL, APIKey: "secret-key-1234", HTTPClient: srv.Client(),
		UserAgent: UserAgent("test"), Clock: fake, Retry: DefaultRetryPolicy,
		Rand: func() float64 { return 0.5 },
	}
	return c, rec, fake
}

func status(code int) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(code)
		_, _ = w.Write([]byte(`{"message":"nope"}`))
	}
}

func TestGETRetriesTransientStatuses(t *testing.T) {
	for _, code := range []int{408, 429, 500, 502, 503, 504} {
		c, rec, fake := newTestClient(t, status(code))
		_, err := c.GetRun(context.Background(), "abc123", GetRunOptions{})
		var he *HTTPError
		if !errors.As(err, &he) || he.StatusCode != code {
			t.Fatalf("%d: got %v", code, err)
		}
		if got := rec.count(); got != 4 {
			t.Errorf("%d: %d attempts, want 1 + 3 retries", code, got)
		}
		// Full jitter at 0.5 over ceilings 1s, 2s, 4s.
		if slept, n := fake.Slept(); n != 3 || slept != 3500*time.Millisecond {
			t.Errorf("%d: slept %s in %d sleeps, want 3.5s in 3", code, slept, n)
		}
	}
}

func TestGETDoesNotRetryClientErrors(t *testing.T) {
	for _, code := range []int{400, 401, 402, 403, 404} {
		c, rec, _ := newTestClient(t, status(code))
		_, err := c.GetRun(context.Background(), "abc123", GetRunOptions{})
		if err == nil || rec.count() != 1 {
			t.Errorf("%d: err=%v attempts=%d, want an error after 1 attempt", code, err, rec.count())
		}
	}
}

func TestGETRecoversAfterTransientFailure(t *testing.T) {
	c, rec, _ := newTestClient(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n < 3 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		_, _ = w.Write([]byte(`{"id":"1","shortId":"abc123","status":"RUNNING","result":null,"runTestCases":[]}`))
	})
	run, err := c.GetRun(context.Background(), "abc123", GetRunOptions{})
	if err != nil || run.Status != StatusRunning || rec.count() != 3 {
		t.Fatalf("run=%+v err=%v attempts=%d", run, err, rec.count())
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	c, _, fake := newTestClient(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":20,"offset":0}`))
	})
	if _, err := c.ListRuns(context.Background(), ListRunsOptions{}); err != nil {
		t.Fatal(err)
	}
	if slept, _ := fake.Slept(); slept != 7*time.Second {
		t.Errorf("slept %s, want the 7s Retry-After asked for", slept)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"":                              0,
		"3":                             3 * time.Second,
		"-1":                            0,
		"3600":                          maxRetryAfter,
		"junk":                          0,
		"Sat, 21 Nov 2026 12:00:10 GMT": 10 * time.Second,
		"Sat, 21 Nov 2026 11:00:00 GMT": 0,
	}
	for in, want := range cases {
		if got := ParseRetryAfter(in, now); got != want {
			t.Errorf("ParseRetryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestStartRunIsNeverRepeatedAfter500(t *testing.T) {
	c, rec, _ := newTestClient(t, status(500))
	_, err := c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"})
	var he *HTTPError
	if !errors.As(err, &he) || he.ExitCode() != 6 {
		t.Fatalf("got %v, want a 500 HTTPError", err)
	}
	if rec.count() != 1 {
		t.Fatalf("%d POSTs reached the server, want exactly 1", rec.count())
	}
}

func TestStartRunRetriesOn429(t *testing.T) {
	c, rec, _ := newTestClient(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte(`{"success":true,"run":{"id":"r1","shortId":"abc123","url":"u","testCount":2}}`))
	})
	resp, err := c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"})
	if err != nil || resp.Run.ShortID != "abc123" || rec.count() != 2 {
		t.Fatalf("resp=%+v err=%v posts=%d", resp, err, rec.count())
	}
}

func TestPOSTRetriesOnlyWhenNotSent(t *testing.T) {
	// A closed port refuses the connection: nothing was sent, so retrying is safe.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	fake := clock.NewFake(time.Now())
	c := &Client{BaseURL: "http://" + addr, APIKey: "k", Clock: fake, Retry: DefaultRetryPolicy, Rand: func() float64 { return 0 }}
	_, err = c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"})
	var te *TransportError
	if !errors.As(err, &te) || te.ExitCode() != 6 {
		t.Fatalf("got %v, want a TransportError", err)
	}
	if _, sleeps := fake.Slept(); sleeps != 3 {
		t.Errorf("%d retries of a refused POST, want 3", sleeps)
	}

	// A connection dropped after the request was written may have started a run.
	c2, rec, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	if _, err := c2.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"}); err == nil {
		t.Fatal("want an error for a dropped connection")
	}
	if rec.count() != 1 {
		t.Errorf("%d POSTs after a dropped connection, want exactly 1", rec.count())
	}
}

func TestQueryEncoding(t *testing.T) {
	var got []string
	c, rec, _ := newTestClient(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/logs"):
			_, _ = w.Write([]byte(`{"runTestCaseShortId":"x","kind":"network","totalMatched":0,"returned":0,"hasMore":false}`))
		case strings.HasPrefix(r.URL.Path, "/v1/remote-tunnels"):
			_, _ = w.Write([]byte(`{"connections":2,"hostnames":[]}`))
		case r.URL.Path == "/v1/test-cases" && r.Method == http.MethodGet:
			_, _ = w.Write([]byte(`{"testCases":[],"total":0,"limit":20,"offset":0}`))
		case r.URL.Path == "/v1/run" && r.Method == http.MethodGet:
			_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":20,"offset":0}`))
		default:
			_, _ = w.Write([]byte(`{"id":"1","shortId":"s","status":"RUNNING","result":null,"runTestCases":[],"success":true,"run":{}}`))
		}
	})
	c.ProjectShortID = "proj-demo_x"
	ctx := context.Background()
	enabled := false
	_, _ = c.GetRun(ctx, "abc", GetRunOptions{TestCases: "failed", Issues: true})
	_, _ = c.ListRuns(ctx, ListRunsOptions{Status: "RUNNING", TestPlanShortID: "pln_a", Limit: 10, Offset: 20})
	_, _ = c.ListTestCases(ctx, ListTestCasesOptions{Labels: []string{"smoke", "login"}, IsEnabled: &enabled, ApplicationShortID: "app_a"})
	_, _ = c.GetRunTestCaseLogs(ctx, "rtc1", LogsQuery{Kind: LogKindAPICalls, StatusFilter: "errors", URLPattern: "api/.*"})
	ts, _ := c.GetTunnelStatus(ctx, "runner-1")
	_, _ = c.StartRun(ctx, StartRunRequest{TestPlanShortID: "pln_a"})
	_, _ = c.CreateTestCase(ctx, CreateTestCaseRequest{Name: "n", Goal: "g", ApplicationShortID: "app_a"})
	for _, r := range rec.requests {
		got = append(got, r.Method+" "+r.URL.RequestURI())
	}
	want := []string{
		"GET /v1/run/abc?issues=true&projectShortId=proj-demo_x&testCases=failed",
		"GET /v1/run?limit=10&offset=20&projectShortId=proj-demo_x&status=RUNNING&testPlanShortId=pln_a",
		"GET /v1/test-cases?applicationShortId=app_a&isEnabled=false&labels=smoke%2Clogin&projectShortId=proj-demo_x",
		"GET /v1/run-test-case/rtc1/logs?kind=apiCalls&projectShortId=proj-demo_x&statusFilter=errors&urlPattern=api%2F.%2A",
		"GET /v1/remote-tunnels/runner-1/status?projectShortId=proj-demo_x",
		"POST /v1/run",
		"POST /v1/test-cases",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ts == nil || ts.Status != TunnelDegraded {
		t.Errorf("tunnel status not derived from connections: %+v", ts)
	}
	// projectShortId goes in the body of POST /v1/run and nowhere for test case creation.
	var startBody, createBody map[string]any
	_ = json.Unmarshal([]byte(rec.bodies[5]), &startBody)
	_ = json.Unmarshal([]byte(rec.bodies[6]), &createBody)
	if startBody["projectShortId"] != "proj-demo_x" {
		t.Errorf("start body lacks projectShortId: %s", rec.bodies[5])
	}
	if _, ok := createBody["projectShortId"]; ok {
		t.Errorf("create body carries projectShortId: %s", rec.bodies[6])
	}
	for _, r := range rec.requests {
		if r.Header.Get("Authorization") != "Bearer secret-key-1234" || !strings.HasPrefix(r.UserAgent(), "testctl/test (") {
			t.Errorf("headers: %v", r.Header)
		}
	}
}

func TestExitCodeMapping(t *testing.T) {
	cases := map[int]int{400: 2, 401: 4, 403: 4, 404: 5, 402: 6, 429: 6, 500: 6, 503: 6}
	for code, want := range cases {
		c, _, _ := newTestClient(t, status(code))
		c.Retry.MaxRetries = 0
		_, err := c.ListRuns(context.Background(), ListRunsOptions{})
		var coded interface{ ExitCode() int }
		if !errors.As(err, &coded) || coded.ExitCode() != want {
			t.Errorf("HTTP %d: exit %v, want %d (%v)", code, coded, want, err)
		}
		if !strings.Contains(err.Error(), "nope") {
			t.Errorf("HTTP %d: message lost: %v", code, err)
		}
	}
	c, _, _ := newTestClient(t, status(401))
	_, err := c.ListRuns(context.Background(), ListRunsOptions{})
	if !strings.Contains(err.Error(), "testctl auth login") || !strings.Contains(err.Error(), "TESTCTL_API_KEY") {
		t.Errorf("401 lacks the hint on how to set a key: %v", err)
	}
}

func TestUnreadableBodies(t *testing.T) {
	bodies := map[string]string{
		"html":      "<html><body>Bad Gateway from proxy</body></html>",
		"truncated": `{"id":"1","shortId":"s","sta`,
		"empty":     "",
		"escapes":   "\x1b]0;pwned\x07not json",
	}
	for name, body := range bodies {
		c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(body)) })
		_, err := c.GetRun(context.Background(), "s", GetRunOptions{})
		var de *DecodeError
		if !errors.As(err, &de) || de.ExitCode() != 6 {
			t.Errorf("%s: got %v, want a DecodeError", name, err)
			continue
		}
		if strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("%s: escape in error: %q", name, err.Error())
		}
	}
}

func TestDebugLogRedactsKey(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		// A hostile or buggy server echoing the key must not get it into the log.
		_, _ = w.Write([]byte(`{"success":true,"run":{"shortId":"s","url":"echo secret-key-1234"}}`))
	})
	var log bytes.Buffer
	c.Debug = &log
	if _, err := c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x", Actor: "secret-key-1234"}); err != nil {
		t.Fatal(err)
	}
	out := log.String()
	if strings.Contains(out, "secret-key-1234") {
		t.Fatalf("key leaked into debug log:\n%s", out)
	}
	for _, want := range []string{"> POST ", "/v1/run (attempt 1)", "Authorization: Bearer [REDACTED]", "< HTTP 200 in", `"testPlanShortId":"pln_x"`} {
		if !strings.Contains(out, want) {
			t.Errorf("debug log lacks %q:\n%s", want, out)
		}
	}
}

func TestInsecureHTTPRefused(t *testing.T) {
	c := &Client{BaseURL: "http://api.example.com", APIKey: "k", Retry: DefaultRetryPolicy}
	_, err := c.ListRuns(context.Background(), ListRunsOptions{})
	var ie *InsecureTransportError
	if !errors.As(err, &ie) || ie.ExitCode() != 2 || !strings.Contains(err.Error(), "--allow-insecure-http") {
		t.Fatalf("got %v, want an InsecureTransportError naming --allow-insecure-http", err)
	}
	// Loopback is fine, and so is an explicit opt-in (the request then fails to connect, not to validate).
	for _, base := range []string{"http://127.0.0.1:1", "http://localhost:1", "http://[::1]:1"} {
		c := &Client{BaseURL: base, APIKey: "k", Clock: clock.NewFake(time.Now())}
		if _, err := c.ListRuns(context.Background(), ListRunsOptions{}); errors.As(err, &ie) {
			t.Errorf("%s refused as insecure", base)
		}
	}
	c = &Client{BaseURL: "http://api.invalid", APIKey: "k", AllowInsecureHTTP: true, Clock: clock.NewFake(time.Now())}
	if _, err := c.ListRuns(context.Background(), ListRunsOptions{}); errors.As(err, &ie) {
		t.Error("--allow-insecure-http did not lift the refusal")
	}
}

func TestLegacyRunDetail(t *testing.T) {
	c, rec, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"id":"6f1c0c8e-0000-4000-8000-000000000000","shortId":"abc123","status":"COMPLETED","result":"FAILED","failedTestCases":[{"shortId":"t1","name":"Login"}]}`))
	})
	c.LegacyBaseURL = c.BaseURL + "/legacy"
	run, err := c.GetLegacyRun(context.Background(), "uuid-1", "abc123")
	if err != nil || len(run.FailedTestCases) != 1 || *run.Result != ResultFailed {
		t.Fatalf("run=%+v err=%v", run, err)
	}
	if got := rec.requests[0].URL.Path; got != "/legacy/projects/uuid-1/runs/abc123" {
		t.Errorf("path %s", got)
	}
}
