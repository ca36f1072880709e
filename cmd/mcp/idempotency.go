package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testctl/testctl/pkg/exitcode"
)

// The calls that create (start_run, rerun_failed, create_test_case) are
// never repeated by a call that comes again: with the same idempotency_key
// within keyMemory, the second call returns, or waits on, what the first
// created; without a key, a call whose response stream was lost before its
// result was sent, re-issued with the same arguments within lostMemory,
// waits on the runs the first started. The ledger is this process's memory
// of those calls; the runs themselves are in the local record of started
// runs (pkg/startedruns), which the wait of an adopted run reads as any
// `run wait` does.
const (
	keyMemory  = time.Hour
	lostMemory = 10 * time.Minute
	// lossSeen: how long a re-issue waits for the loss of the stream of
	// the call it repeats to be seen (the server learns it when the TCP
	// connection closes, at about the time the client re-issues).
	lossSeen = time.Second
	// cancelSeen: how long after a loss a client's notifications/cancelled
	// may still come (the Go SDK sends it after it closed the stream).
	cancelSeen = 500 * time.Millisecond
)

// ledger holds the calls that create, by key.
type ledger struct {
	mu    sync.Mutex
	calls map[string]*creation
}

// creation is one call that creates, as the calls that repeat it see it.
type creation struct {
	tool    string
	key     string // the idempotency_key; "" for a call known by its arguments
	args    string // the arguments that say what is created, normalised
	started time.Time

	// resolved is closed once what the call created is known: its POSTs
	// were answered (runs holds the runs started), or its command ended.
	resolved chan struct{}
	runs     []string
	// done is closed when the command ended, res and out its result.
	done chan struct{}
	res  *mcp.CallToolResult
	out  Result

	mu       sync.Mutex
	answered bool      // the call's handler returned its result
	lostAt   time.Time // when its response stream was lost, before its result
	request  string    // its requestKey, for a cancellation by the client
}

func (c *creation) lost() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lostAt, !c.lostAt.IsZero()
}

func (c *creation) isDone() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// creatingCall is one call of a tool that creates.
type creatingCall struct {
	tool string
	key  string // idempotency_key
	// what and all are the call's arguments, normalised (defaults filled,
	// order ignored): what says what is created, all is every argument.
	what, all any
	// expect is how many runs the call starts (0: it creates no run).
	expect int
	// wait: the call waits for its runs' verdict; waitArgs are the flags of
	// that wait (timeout, reports, --pass-with-no-tests).
	wait     bool
	waitArgs []string
	args     []string // the command line
	k        kind
}

func digest(v any) string {
	data, _ := json.Marshal(v)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// create runs a call that creates, unless an earlier call it repeats
// already did: then it takes up what that call created.
func (s *server) create(ctx context.Context, req *mcp.CallToolRequest, c creatingCall) (*mcp.CallToolResult, Result, error) {
	what, all := digest(c.what), digest(c.all)
	ledgerKey := "args\x00" + c.tool + "\x00" + all
	if c.key != "" {
		ledgerKey = "key\x00" + c.tool + "\x00" + c.key
	}
	for {
		now := time.Now()
		s.ledger.mu.Lock()
		if s.ledger.calls == nil {
			s.ledger.calls = map[string]*creation{}
		}
		for k, e := range s.ledger.calls {
			if now.Sub(e.started) > keyMemory {
				delete(s.ledger.calls, k)
			}
		}
		prev := s.ledger.calls[ledgerKey]
		if prev == nil {
			e := &creation{tool: c.tool, key: c.key, args: what, started: now, resolved: make(chan struct{}), done: make(chan struct{})}
			s.ledger.calls[ledgerKey] = e
			s.ledger.mu.Unlock()
			return s.first(ctx, req, c, e)
		}
		s.ledger.mu.Unlock()
		if c.key != "" && prev.args != what {
			return usage(fmt.Sprintf("idempotency_key %q was given to an earlier %s call with other arguments: use a new key for other arguments", c.key, c.tool))
		}
		// One at a time per key: a repeat waits for the POST of the call it
		// repeats to be answered.
		select {
		case <-prev.resolved:
		case <-ctx.Done():
			return usage("the call was cancelled while it waited for the identical call before it")
		}
		if s.repeats(ctx, c, prev) {
			return s.adopt(ctx, req, c, prev)
		}
		s.ledger.mu.Lock()
		if s.ledger.calls[ledgerKey] == prev {
			delete(s.ledger.calls, ledgerKey)
		}
		s.ledger.mu.Unlock()
	}
}

// repeats says whether the call takes up what prev created.
func (s *server) repeats(ctx context.Context, c creatingCall, prev *creation) bool {
	if c.key != "" {
		if len(prev.runs) > 0 {
			return true
		}
		// Nothing created: a refusal (bad arguments, no key, no such
		// plan) leaves the key free; anything else may have created what
		// the first call's result names, and is never sent again.
		<-prev.done
		return !slices.Contains([]int{exitcode.Usage, exitcode.Auth, exitcode.NotFound}, prev.out.ExitCode)
	}
	// Without a key, only a call whose stream was lost is repeated: the
	// server may see the loss a moment after the re-issue arrives. Off
	// HTTP (stdio) a stream is never lost alone.
	if prev.request == "" {
		return false
	}
	deadline := time.NewTimer(lossSeen)
	defer deadline.Stop()
	for {
		if at, lost := prev.lost(); lost {
			if wait := cancelSeen - time.Since(at); wait > 0 {
				select {
				case <-time.After(wait):
				case <-ctx.Done():
				}
			}
			if time.Since(at) > lostMemory || s.streams.cancelledByClient(prev.request) {
				return false
			}
			if c.expect == 0 { // a test case: the one the first created
				<-prev.done
				return prev.out.ExitCode == exitcode.OK
			}
			return len(prev.runs) > 0
		}
		if prev.isDone() && prev.wasAnswered() {
			return false
		}
		select {
		case <-deadline.C:
			return false
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (c *creation) wasAnswered() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answered
}

// first runs the call's command. What it creates cannot be lost with the
// call: the command's context ends with the call's only once its POSTs
// were answered, so that the runs they started are known to a re-issue.
func (s *server) first(ctx context.Context, req *mcp.CallToolRequest, c creatingCall, e *creation) (*mcp.CallToolResult, Result, error) {
	s.watchStream(req, e)
	held, release := holdCancel(ctx)
	var once sync.Once
	resolve := func(runs []string) {
		once.Do(func() {
			e.runs = runs
			close(e.resolved)
			release()
		})
	}
	var mu sync.Mutex
	var runs []string
	observe := func(line string) {
		if c.expect == 0 {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if m := startedLine().FindStringSubmatch(line); m != nil {
			runs = append(runs, m[1])
		}
		// The wait's first line comes once every POST was answered.
		if len(runs) >= c.expect || progressLine().MatchString(line) {
			resolve(slices.Clone(runs))
		}
	}
	p := s.progress(ctx, req)
	inv := s.invoke(held, c.args, func(line string) {
		if p.send != nil {
			p.send(line)
		}
		observe(line)
	})
	mu.Lock()
	resolve(slices.Clone(runs))
	mu.Unlock()
	p.settle(ctx)
	res, out := s.build(inv, c.k, nil, nil)
	e.res, e.out = res, out
	e.mu.Lock()
	e.answered = ctx.Err() == nil
	e.mu.Unlock()
	close(e.done)
	return res, out, nil
}

// watchStream notes when the POST that carries the call ends before the
// call answered: its response stream was lost.
func (s *server) watchStream(req *mcp.CallToolRequest, e *creation) {
	if req == nil || req.Extra == nil {
		return
	}
	p := s.streams.find(req.Extra.Header)
	if p == nil {
		return
	}
	e.request = p.request
	context.AfterFunc(p.ctx, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		if !e.answered && e.lostAt.IsZero() {
			e.lostAt = time.Now()
		}
	})
}

// holdCancel is a context that ends with call, but only once release was
// called: what a command created is known before its call can end it.
func holdCancel(call context.Context) (context.Context, func()) {
	held, cancel := context.WithCancelCause(context.WithoutCancel(call))
	var mu sync.Mutex
	released, ended := false, false
	context.AfterFunc(call, func() {
		mu.Lock()
		defer mu.Unlock()
		ended = true
		if released {
			cancel(context.Cause(call))
		}
	})
	return held, func() {
		mu.Lock()
		defer mu.Unlock()
		released = true
		if ended {
			cancel(context.Cause(call))
		}
	}
}

// adopt answers a call that repeats prev with what prev created: the runs
// it started, waited on as this call asks, or its result.
func (s *server) adopt(ctx context.Context, req *mcp.CallToolRequest, c creatingCall, prev *creation) (*mcp.CallToolResult, Result, error) {
	why := fmt.Sprintf("an earlier %s call with the same arguments lost its answer", c.tool)
	if c.key != "" {
		why = fmt.Sprintf("an earlier %s call had idempotency_key %q", c.tool, c.key)
	}
	if len(prev.runs) == 0 {
		<-prev.done
		note := fmt.Sprintf("Nothing was sent: %s; its result follows.", why)
		return withNote(prev.res, note), prev.out, nil
	}
	runs := slices.Clone(prev.runs)
	note := fmt.Sprintf("Nothing was started: %s and started %s, %s.", why, quoteIDs(runs), map[bool]string{true: "waited on here", false: "returned here"}[c.wait])
	if !c.wait {
		res, out := s.build(invocation{stderr: note + "\n"}, startKind, runs, nil)
		return res, out, nil
	}
	args := slices.Concat([]string{"run", "wait"}, c.waitArgs, []string{"--"}, runs)
	res, out, err := s.call(ctx, req, args, verdictKind, runs, nil)
	return withNote(res, note), out, err
}

// withNote is res with note after its verdict line, in a copy.
func withNote(res *mcp.CallToolResult, note string) *mcp.CallToolResult {
	cp := *res
	cp.Content = slices.Clone(res.Content)
	if len(cp.Content) > 0 {
		if tc, ok := cp.Content[0].(*mcp.TextContent); ok {
			first, rest, _ := strings.Cut(tc.Text, "\n")
			cp.Content[0] = &mcp.TextContent{Text: first + "\n\n" + note + "\n" + rest}
		}
	}
	return &cp
}
