package mcp_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpcmd "github.com/testctl/testctl/cmd/mcp"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/iostreams"
)

// cutter is the client's HTTP transport: cut makes the tools/call
// requests in flight fail, before or after their response began, as a
// dropped connection does (the client's call itself is not cancelled, so
// it sends no notifications/cancelled).
type cutter struct {
	mu      sync.Mutex
	cancels []context.CancelFunc
}

func (c *cutter) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	if bytes.Contains(body, []byte(`"tools/call"`)) {
		ctx, cancel := context.WithCancel(r.Context())
		r = r.WithContext(ctx)
		c.mu.Lock()
		c.cancels = append(c.cancels, cancel)
		c.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// cut drops the calls in flight.
func (c *cutter) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cancel := range c.cancels {
		cancel()
	}
	c.cancels = nil
}

// httpAgent is a Go SDK client of `testctl mcp --http`.
type httpAgent struct {
	cs       *mcp.ClientSession
	cutter   *cutter
	calls    atomic.Int32 // tools/call POSTs that reached the server
	onStart  func(id string)
	startsMu sync.Mutex
}

var startedRun = regexp.MustCompile(`Started run (\S+)`)

func connectHTTP(t *testing.T, e *cmdtest.Env, propagate bool, protocol string) *httpAgent {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	h := mcpcmd.NewHTTPHandler(context.Background(), e.Factory(t, ios), root.Run, false, propagate)
	a := &httpAgent{cutter: &cutter{}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			a.calls.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			if m := startedRun.FindStringSubmatch(r.Params.Message); m != nil {
				a.startsMu.Lock()
				f := a.onStart
				a.onStart = nil
				a.startsMu.Unlock()
				if f != nil {
					f(m[1])
				}
			}
		},
	})
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: &http.Client{Transport: a.cutter}, MaxRetries: 1},
		&mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	want := cmp.Or(protocol, "2026-07-28")
	if got := cs.InitializeResult().ProtocolVersion; got != want {
		t.Fatalf("negotiated protocol %s, want %s", got, want)
	}
	a.cs = cs
	return a
}

func (a *httpAgent) callTool(ctx context.Context, tool string, args map[string]any) (*mcp.CallToolResult, mcpcmd.Result, error) {
	p := &mcp.CallToolParams{Name: tool, Arguments: args}
	p.SetProgressToken("tok")
	res, err := a.cs.CallTool(ctx, p)
	var out mcpcmd.Result
	if err == nil && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &out)
	}
	return res, out, err
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// protocols are the ways a client speaks streamable HTTP to the server:
// the 2026-07-28 revision (no sessions, a closed stream is a cancellation)
// with the SDK's PropagateRequestCancellation on (as `testctl mcp --http`
// serves it) and off, and the 2025-11-25 revision with its sessions.
var protocols = []struct {
	name      string
	propagate bool
	version   string
}{
	{"2026-07-28 propagating", true, ""},
	{"2026-07-28 not propagating", false, ""},
	{"2025-11-25 session", false, "2025-11-25"},
}

// TestLostStreamReissueWaitsOnTheFirstRun: a start_run whose response
// stream is cut after the run started, re-issued with the same arguments
// (in another order, defaults spelled out), waits on the run the first
// started: the service got one POST /v1/run.
func TestLostStreamReissueWaitsOnTheFirstRun(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			e := cmdtest.New(t)
			a := connectHTTP(t, e, p.propagate, p.version)
			first := make(chan string, 1)
			a.onStart = func(id string) {
				first <- id
				a.cutter.cut()
			}
			plans := []string{"pln-passing_sandbox", "pln-failing_sandbox"}
			if _, _, err := a.callTool(context.Background(), "start_run", map[string]any{"plans": plans}); err == nil {
				t.Fatal("the call whose stream was cut returned a result")
			}
			id := <-first
			res, out, err := a.callTool(context.Background(), "start_run",
				map[string]any{"plans": []string{plans[1], plans[0]}, "wait": true, "timeout": "60m"})
			if err != nil {
				t.Fatal(err)
			}
			if n := e.Requests("POST /v1/run"); n != 2 {
				t.Errorf("POST /v1/run sent %d times for two plans, want 2 (once each)\n%s", n, textOf(res))
			}
			if len(out.RunIDs) != 2 || !strings.Contains(strings.Join(out.RunIDs, " "), id) || out.Verdict != "failed" {
				t.Errorf("the re-issue did not wait on the first call's runs (%s): %+v\n%s", id, out, textOf(res))
			}
			cmdtest.Contains(t, "re-issue", textOf(res), "lost its answer")
		})
	}
}

// TestReissueDuringThePOSTWaitsForIt: a re-issue that arrives while the
// first call's POST /v1/run is still unanswered waits for that answer and
// takes up its run.
func TestReissueDuringThePOSTWaitsForIt(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			e := cmdtest.New(t)
			var a *httpAgent
			release := make(chan struct{})
			var once sync.Once
			e.Hook(func(r *http.Request) {
				if r.Method == http.MethodPost && r.URL.Path == "/v1/run" {
					once.Do(func() {
						a.cutter.cut()
						<-release
					})
				}
			})
			a = connectHTTP(t, e, p.propagate, p.version)
			args := map[string]any{"plans": []string{"pln-passing_sandbox"}}
			if _, _, err := a.callTool(context.Background(), "start_run", args); err == nil {
				t.Fatal("the call whose stream was cut returned a result")
			}
			go func() {
				for a.calls.Load() < 2 {
					time.Sleep(5 * time.Millisecond)
				}
				time.Sleep(100 * time.Millisecond)
				close(release)
			}()
			res, out, err := a.callTool(context.Background(), "start_run", args)
			if err != nil {
				t.Fatal(err)
			}
			if n := e.Requests("POST /v1/run"); n != 1 {
				t.Errorf("POST /v1/run sent %d times, want once\n%s", n, textOf(res))
			}
			if out.Verdict != "passed" || len(out.RunIDs) != 1 {
				t.Errorf("%+v\n%s", out, textOf(res))
			}
		})
	}
}

// TestCancelledCallIsNotReused: a call the client cancelled itself
// (notifications/cancelled) is not taken up by the next identical call:
// the agent that cancels, fixes its code and starts again gets a new run.
func TestCancelledCallIsNotReused(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			e := cmdtest.New(t)
			a := connectHTTP(t, e, p.propagate, p.version)
			ctx, cancel := context.WithCancel(context.Background())
			first := make(chan string, 1)
			a.onStart = func(id string) {
				first <- id
				cancel()
			}
			args := map[string]any{"plans": []string{"pln-passing_sandbox"}}
			if _, _, err := a.callTool(ctx, "start_run", args); err == nil {
				t.Fatal("the cancelled call returned a result")
			}
			id := <-first
			res, out, err := a.callTool(context.Background(), "start_run", args)
			if err != nil {
				t.Fatal(err)
			}
			if n := e.Requests("POST /v1/run"); n != 2 {
				t.Errorf("POST /v1/run sent %d times, want twice\n%s", n, textOf(res))
			}
			if len(out.RunIDs) != 1 || out.RunIDs[0] == id {
				t.Errorf("the call after a cancelled one took up its run %s: %+v\n%s", id, out, textOf(res))
			}
		})
	}
}

// TestIdempotencyKey: a second call with the same key returns or waits on
// what the first created; with other arguments it is refused; another key
// creates anew.
func TestIdempotencyKey(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	ctx := context.Background()
	args := map[string]any{"plans": []string{"pln-failing_sandbox"}, "wait": false, "idempotency_key": "k-1"}
	first := a.call(t, ctx, "start_run", args)
	if first.data.Verdict != "started" || len(first.data.RunIDs) != 1 {
		t.Fatalf("%+v\n%s", first.data, first.text)
	}
	args["wait"] = true
	again := a.call(t, ctx, "start_run", args)
	if again.data.Verdict != "failed" || len(again.data.RunIDs) != 1 || again.data.RunIDs[0] != first.data.RunIDs[0] {
		t.Errorf("the same key did not wait on the first run %v: %+v\n%s", first.data.RunIDs, again.data, again.text)
	}
	cmdtest.Contains(t, "text", again.text, `idempotency_key "k-1"`)
	if n := e.Requests("POST /v1/run"); n != 1 {
		t.Errorf("POST /v1/run sent %d times, want once", n)
	}
	other := a.call(t, ctx, "start_run", map[string]any{"plans": []string{"pln-passing_sandbox"}, "idempotency_key": "k-1"})
	if !other.isError || other.data.Verdict != "usage" {
		t.Errorf("the key with other arguments: %+v\n%s", other.data, other.text)
	}
	rerun := map[string]any{"run_id": first.data.RunIDs[0], "idempotency_key": "k-2"}
	r1 := a.call(t, ctx, "rerun_failed", rerun)
	r2 := a.call(t, ctx, "rerun_failed", rerun)
	if len(r1.data.RunIDs) != 1 || len(r2.data.RunIDs) != 1 || r1.data.RunIDs[0] != r2.data.RunIDs[0] {
		t.Errorf("rerun_failed with one key: %v then %v\n%s", r1.data.RunIDs, r2.data.RunIDs, r2.text)
	}
	tc := map[string]any{"app": "app_sandbox-web", "name": "Checkout", "goal": "Buy a thing", "idempotency_key": "k-3"}
	c1 := a.call(t, ctx, "create_test_case", tc)
	c2 := a.call(t, ctx, "create_test_case", tc)
	if c1.isError || c2.isError || e.Requests("POST /v1/test-cases") != 1 {
		t.Errorf("create_test_case with one key sent %d POSTs\n%s\n%s", e.Requests("POST /v1/test-cases"), c1.text, c2.text)
	}
	// Without a key, over a transport whose streams are never lost alone,
	// two identical calls are two starts.
	delete(args, "idempotency_key")
	a.call(t, ctx, "start_run", args)
	a.call(t, ctx, "start_run", args)
	if n := e.Requests("POST /v1/run"); n != 3 {
		t.Errorf("POST /v1/run sent %d times, want 3", n)
	}
}
