package evidence_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/sandbox"
)

// counting serves h and counts the requests of each path kind, and the
// requests the client has in flight at once (the server would see a
// cancelled one a moment late).
type counting struct {
	h              http.Handler
	logs, runs     atomic.Int32
	inFlight, peak atomic.Int32
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	n := c.inFlight.Add(1)
	defer c.inFlight.Add(-1)
	for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (c *counting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/logs") {
		c.logs.Add(1)
	} else if strings.HasPrefix(r.URL.Path, "/v1/run/") {
		c.runs.Add(1)
	}
	c.h.ServeHTTP(w, r)
}

func serve(t *testing.T, h http.Handler) (*counting, *api.Client) {
	t.Helper()
	c := &counting{h: h}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return c, &api.Client{BaseURL: srv.URL, APIKey: sandbox.ProjectKey, Retry: api.DefaultRetryPolicy, Clock: clock.NewFake(time.Now()),
		HTTPClient: &http.Client{Transport: c}}
}

// failedRun runs the sandbox's failing plan to its end and returns the
// targets of its test cases that did not pass.
func failedRun(t *testing.T) (*counting, *api.Client, []evidence.Target) {
	t.Helper()
	fake := clock.NewFake(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC))
	counter, client := serve(t, sandbox.New(sandbox.Options{Clock: fake}))
	ctx := context.Background()
	started, err := client.StartRun(ctx, api.StartRunRequest{TestPlanShortID: sandbox.PlanFailing})
	if err != nil {
		t.Fatal(err)
	}
	fake.Advance(time.Minute)
	detail, err := client.GetRun(ctx, started.Run.ShortID, api.GetRunOptions{TestCases: "failed"})
	if err != nil {
		t.Fatal(err)
	}
	var targets []evidence.Target
	for _, tc := range detail.RunTestCases {
		if tc.Result == api.ResultFailed {
			targets = append(targets, evidence.TargetOf(detail.ShortID, "Checkout regression", tc))
		}
	}
	if len(targets) != 2 {
		t.Fatalf("targets %+v", targets)
	}
	counter.logs.Store(0)
	counter.runs.Store(0)
	return counter, client, targets
}

func byName(cases []evidence.Case, name string) evidence.Case {
	for _, c := range cases {
		if c.Name == name {
			return c
		}
	}
	return evidence.Case{}
}

func TestGatherFromTheSandbox(t *testing.T) {
	counter, client, targets := failedRun(t)
	cases := gather(context.Background(), client, targets, evidence.Options{}, nil)
	if len(cases) != 2 || cases[0].Target != targets[0] || cases[1].Target != targets[1] {
		t.Fatalf("cases not in the order of the targets: %+v", cases)
	}
	// Network and console logs per test case (browser tests with failed
	// requests: no API calls to read), the run's issues once.
	if counter.logs.Load() != 4 || counter.runs.Load() != 1 {
		t.Errorf("%d logs requests, %d run requests; want 4 and 1", counter.logs.Load(), counter.runs.Load())
	}
	card := byName(cases, "Pay with a declined card")
	text := strings.Join(evidence.Lines(card), "\n")
	for _, want := range []string{"POST /api/payments 502", "console error", "issue CRITICAL: Payment step goes blank on a declined card",
		"issue MEDIUM: Recommendations API answers 500"} {
		if !strings.Contains(text, want) {
			t.Errorf("declined card evidence lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Expired coupons") {
		t.Errorf("an issue of another test case:\n%s", text)
	}
	// The request and the console error it caused line up: the error is
	// logged in the second the payment's answer came.
	m := regexp.MustCompile(`(?m)^\+(\d+)(?:\.(\d))?s POST /api/payments 502 \((\d+)\.(\d) s\)$`).FindStringSubmatch(text)
	n := regexp.MustCompile(`(?m)^\+(\d+)(?:\.0)?s console error Uncaught TypeError`).FindStringSubmatch(text)
	if m == nil || n == nil {
		t.Fatalf("no timed payment or TypeError:\n%s", text)
	}
	atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }  // "" (no tenths) is 0
	start, took := atoi(m[1])*10+atoi(m[2]), atoi(m[3])*10+atoi(m[4]) // tenths
	if logged := atoi(n[1]); logged < (start+took)/10-1 || logged > (start+took)/10+1 {
		t.Errorf("payment at %d, for %d tenths of a second; TypeError at %d s", start, took, logged)
	}
	if got := evidence.FirstLine(card); got != "issue CRITICAL: Payment step goes blank on a declined card" {
		t.Errorf("first line %q", got)
	}
	for _, c := range cases {
		if c.Network.Unavailable+c.Console.Unavailable+c.APICalls.Unavailable+c.Issues.Unavailable != "" {
			t.Errorf("%s: a part unavailable: %+v", c.Name, c)
		}
		if len(c.Network.Entries) == 0 || c.Network.Total < len(c.Network.Entries) {
			t.Errorf("%s: network %+v", c.Name, c.Network)
		}
	}
}

func TestNoTargetsNoRequests(t *testing.T) {
	counter, client, _ := failedRun(t)
	if got := gather(context.Background(), client, nil, evidence.Options{}, nil); got != nil {
		t.Errorf("cases %+v", got)
	}
	kept, _ := evidence.Limit([]evidence.Target{{RunShortID: "r1", CaseShortID: "r1-1"}}, 0)
	gather(context.Background(), client, kept, evidence.Options{}, nil)
	if n := counter.logs.Load() + counter.runs.Load(); n != 0 {
		t.Errorf("%d requests for no targets", n)
	}
}

func TestIssuesMatchByShortIDOrName(t *testing.T) {
	counter, client := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/logs") && r.URL.Query().Get("kind") == "console" {
			if r.URL.Query().Get("includeWarnings") != "true" {
				t.Errorf("console read without warnings: %s", r.URL)
			}
			w.Write([]byte(`{"kind":"console","totalMatched":3,"returned":3,"hasMore":false,"console":[
				{"level":"log","message":"chatter","relativeTimestampSeconds":0},
				{"level":"error","message":"boom","relativeTimestampSeconds":1},
				{"level":"warning","message":"hmm","relativeTimestampSeconds":2}]}`))
			return
		}
		if strings.HasSuffix(r.URL.Path, "/logs") {
			if r.URL.Query().Get("statusFilter") != "errors" {
				t.Errorf("requests read without statusFilter=errors: %s", r.URL)
			}
			w.Write([]byte(`{"kind":"network","totalMatched":0,"returned":0,"hasMore":false}`))
			return
		}
		if r.URL.Query().Get("issues") != "true" {
			t.Errorf("run read without issues=true: %s", r.URL)
		}
		w.Write([]byte(`{"shortId":"x","status":"COMPLETED","runTestCases":[],"issues":[
			{"title":"by id","severity":"HIGH","testCases":[{"shortId":"r1-1","name":"other"}]},
			{"title":"by name","severity":"LOW","testCases":[{"shortId":"zz-9","name":"Second"}]},
			{"title":"nobody's","severity":"LOW","testCases":[{"shortId":"zz-8","name":"Nobody"}]}]}`))
	}))
	targets := []evidence.Target{{RunShortID: "r1", CaseShortID: "r1-1", Name: "First"},
		{RunShortID: "r1", CaseShortID: "r1-2", Name: "Second"}, {RunShortID: "r2", CaseShortID: "r2-1", Name: "Third"}}
	cases := gather(context.Background(), client, targets, evidence.Options{}, nil)
	if counter.runs.Load() != 2 || counter.logs.Load() != 9 {
		t.Errorf("%d run requests (want one per run, 2), %d logs requests (want 9)", counter.runs.Load(), counter.logs.Load())
	}
	titles := func(c evidence.Case) string {
		var s []string
		for _, is := range c.Issues.Entries {
			s = append(s, is.Title)
		}
		return strings.Join(s, ",")
	}
	if titles(cases[0]) != "by id" || titles(cases[1]) != "by name" || titles(cases[2]) != "" {
		t.Errorf("issues: %q %q %q", titles(cases[0]), titles(cases[1]), titles(cases[2]))
	}
	// Console errors and warnings only: the service sends other levels along.
	if con := cases[0].Console; len(con.Entries) != 2 || con.Total != 2 || con.Entries[0].Message != "boom" {
		t.Errorf("console %+v", con)
	}
}

// Every request fails: every part says why, after the tries a transient
// failure gets (a 5xx, a dropped connection: 4 each) and no more; an answer
// that cannot be read is not asked for again.
func TestEveryRequestFails(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		tries      int32
		h          http.HandlerFunc
	}{
		{"500", "HTTP 500", 4, func(w http.ResponseWriter, r *http.Request) { http.Error(w, `{"message":"boom"}`, 500) }},
		{"garbage", "unreadable answer", 1, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>")) }},
		{"drop", "no answer", 4, func(w http.ResponseWriter, r *http.Request) {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			counter, client := serve(t, tc.h)
			targets := []evidence.Target{{RunShortID: "r1", CaseShortID: "r1-1"}, {RunShortID: "r1", CaseShortID: "r1-2"}}
			cases := gather(context.Background(), client, targets, evidence.Options{}, nil)
			for _, c := range cases {
				for kind, got := range map[string]string{"network": c.Network.Unavailable, "console": c.Console.Unavailable,
					"api calls": c.APICalls.Unavailable, "issues": c.Issues.Unavailable} {
					if got != tc.want {
						t.Errorf("%s %s: unavailable %q, want %q", c.CaseShortID, kind, got, tc.want)
					}
				}
				if lines := evidence.Lines(c); len(lines) != 4 || !strings.HasSuffix(lines[0], ": not available: "+tc.want) {
					t.Errorf("lines %q", lines)
				}
			}
			// network and console of each, the run's issues: API calls are
			// read only after a network log that answered with no failure.
			if n := counter.logs.Load() + counter.runs.Load(); n != 5*tc.tries {
				t.Errorf("%d requests, want %d: 5 reads, each tried %d times", n, 5*tc.tries, tc.tries)
			}
		})
	}
}

// A server that never answers: each request is cut at its timeout, and
// the whole at the gathering's, with never more than Concurrency requests
// at once.
func TestHangingServerIsBounded(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	counter, client := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	var targets []evidence.Target
	for _, id := range []string{"r1-1", "r1-2", "r1-3", "r2-1"} {
		targets = append(targets, evidence.Target{RunShortID: id[:2], CaseShortID: id})
	}
	for _, opts := range []evidence.Options{
		{Concurrency: 2, RequestTimeout: 10 * time.Millisecond, Timeout: time.Minute},
		{Concurrency: 3, RequestTimeout: time.Minute, Timeout: 30 * time.Millisecond},
	} {
		counter.peak.Store(0)
		cases := gather(context.Background(), client, targets, opts, nil)
		for _, c := range cases {
			if c.Network.Unavailable != "timed out" || c.Console.Unavailable != "timed out" ||
				c.APICalls.Unavailable != "timed out" || c.Issues.Unavailable != "timed out" {
				t.Errorf("%+v: %s", opts, c.Network.Unavailable)
			}
		}
		if p := counter.peak.Load(); p > int32(opts.Concurrency) {
			t.Errorf("%d requests at once, bound %d", p, opts.Concurrency)
		}
	}
	// The caller's own cancellation (Ctrl-C) is named as such.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c := gather(ctx, client, targets[:1], evidence.Options{}, nil); c[0].Network.Unavailable != "cancelled" {
		t.Errorf("cancelled: %q", c[0].Network.Unavailable)
	}
}

// tenFailures serves a sandbox with a finished run of ten failed test
// cases (Options.FailingTestCases), answering after latency, and returns
// a client, the run and the targets a report of it would gather.
func tenFailures(b *testing.B, latency time.Duration) (*api.Client, string, []evidence.Target) {
	b.Helper()
	fake := clock.NewFake(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC))
	srv := httptest.NewServer(sandbox.New(sandbox.Options{Clock: fake, FailingTestCases: 10, Latency: latency}))
	b.Cleanup(srv.Close)
	client := &api.Client{BaseURL: srv.URL, APIKey: sandbox.ProjectKey, Clock: fake}
	ctx := context.Background()
	started, err := client.StartRun(ctx, api.StartRunRequest{TestPlanShortID: sandbox.PlanRegressions})
	if err != nil {
		b.Fatal(err)
	}
	fake.Advance(time.Minute)
	run, err := client.GetRun(ctx, started.Run.ShortID, api.GetRunOptions{TestCases: "failed"})
	if err != nil || len(run.RunTestCases) != 10 {
		b.Fatalf("%v: %d failed", err, len(run.RunTestCases))
	}
	var targets []evidence.Target
	for _, tc := range run.RunTestCases {
		targets = append(targets, evidence.TargetOf(run.ShortID, "Regressions", tc))
	}
	return client, run.ShortID, targets
}

// The cost evidence adds to a report of a run with ten failed test cases
// (21 requests: two logs each and the issues, eight at a time), beside the
// one run get the verdict needs, with no latency and with 20 ms per answer.
func BenchmarkEvidenceOfTenFailures(b *testing.B) {
	for _, latency := range []time.Duration{0, 20 * time.Millisecond} {
		b.Run(fmt.Sprintf("run-get/latency=%s", latency), func(b *testing.B) {
			client, run, _ := tenFailures(b, latency)
			for b.Loop() {
				if _, err := client.GetRun(context.Background(), run, api.GetRunOptions{TestCases: "all"}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("gather/latency=%s", latency), func(b *testing.B) {
			client, _, targets := tenFailures(b, latency)
			for b.Loop() {
				for _, c := range gather(context.Background(), client, targets, evidence.Options{}, nil) {
					if c.Network.Unavailable != "" || len(c.Network.Entries) == 0 {
						b.Fatalf("%+v", c.Network)
					}
				}
			}
		})
	}
}

// Issues already read with the run are not asked for again.
func TestKnownIssuesAreNotReadAgain(t *testing.T) {
	counter, client, targets := failedRun(t)
	known := map[string][]api.Issue{targets[0].RunShortID: {{Title: "Known before", Severity: "HIGH", TestCases: []api.IssueTestCase{{ShortID: targets[0].CaseShortID}}}}}
	cases := gather(context.Background(), client, targets, evidence.Options{}, known)
	if n := counter.runs.Load(); n != 0 {
		t.Errorf("%d run requests, want none: the issues were known", n)
	}
	if text := strings.Join(evidence.Lines(cases[0]), "\n"); !strings.Contains(text, "issue HIGH: Known before") {
		t.Errorf("the known issue is not in the evidence:\n%s", text)
	}
}

// Ids the service gave that would change the path of a request are never
// sent: the test case's logs are skipped, and say so in one line, with no
// command that would be refused; its run's issues are still read, and
// name it by its name. A run id the service gave that cannot be sent
// skips the issues read the same way.
func TestUnusableServiceIDsAreSkipped(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	counter, client := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.EscapedPath())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/logs") {
			w.Write([]byte(`{"kind":"network","totalMatched":0,"returned":0,"hasMore":false}`))
			return
		}
		w.Write([]byte(`{"shortId":"r1","status":"COMPLETED","runTestCases":[],"issues":[
			{"title":"by name","severity":"HIGH","testCases":[{"shortId":"..","name":"Dots"}]}]}`))
	}))
	targets := []evidence.Target{{RunShortID: "r1", CaseShortID: "..", Name: "Dots"}, {RunShortID: "r1", CaseShortID: ".", Name: "Dot"},
		{RunShortID: "r1", CaseShortID: "r1-3", Name: "Fine"}, {RunShortID: "..", CaseShortID: "ok-1", Name: "Other run"}}
	cases := gather(context.Background(), client, targets, evidence.Options{}, nil)
	mu.Lock()
	for _, p := range paths {
		if p != "/v1/run/r1" && !strings.HasPrefix(p, "/v1/run-test-case/r1-3/") && !strings.HasPrefix(p, "/v1/run-test-case/ok-1/") {
			t.Errorf("a request for %s", p)
		}
	}
	mu.Unlock()
	if counter.runs.Load() != 1 {
		t.Errorf("%d run reads, want 1 (r1's issues)", counter.runs.Load())
	}
	for i, id := range []string{"..", "."} {
		c := cases[i]
		lines := evidence.Lines(c)
		want := `logs skipped: the service gave the id "` + id + `", which cannot be sent`
		if len(lines) == 0 || lines[0] != want || strings.Count(strings.Join(lines, "\n"), "skipped") != 1 {
			t.Errorf("%s: lines %q, want first %q", id, lines, want)
		}
		for _, cmd := range evidence.Commands(c) {
			if strings.Contains(cmd, "testctl logs") {
				t.Errorf("%s: a command that would be refused: %s", id, cmd)
			}
		}
		if c.Network.Unavailable == "" || c.Console.Unavailable == "" || c.APICalls.Unavailable == "" {
			t.Errorf("%s: a log part not marked unavailable: %+v", id, c)
		}
		for _, text := range []string{evidence.Text(c), evidence.Markdown(c)} {
			if !strings.Contains(text, "logs skipped") {
				t.Errorf("%s: the skip is not said:\n%s", id, text)
			}
		}
	}
	if got := strings.Join(evidence.Lines(cases[0]), "\n"); !strings.Contains(got, "issue HIGH: by name") {
		t.Errorf("the issues of a skipped test case were not read:\n%s", got)
	}
	if cases[2].Skipped != "" || cases[2].Network.Unavailable != "" {
		t.Errorf("a usable id was skipped: %+v", cases[2])
	}
	if got := cases[3].Issues.Unavailable; got != `skipped: the service gave the id "..", which cannot be sent` {
		t.Errorf("issues of run .. : %q", got)
	}
	if cmds := evidence.Commands(cases[3]); slices.ContainsFunc(cmds, func(c string) bool { return strings.Contains(c, "run get") }) {
		t.Errorf("a run get command for run ..: %q", cmds)
	}
}

// gather reads the evidence of targets as a report does: one reader, the
// issues of the runs in known not asked for again.
func gather(ctx context.Context, client *api.Client, targets []evidence.Target, opts evidence.Options, known map[string][]api.Issue) []evidence.Case {
	r := evidence.NewReader(ctx, client, opts)
	defer r.Close()
	return r.Gather(ctx, targets, known)
}
