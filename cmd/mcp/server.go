package mcp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/termtext"
)

// server holds what every tool call shares: the factory of `testctl mcp`
// (its config, client and sandbox) and the way to run a command line.
type server struct {
	// ctx is the server's own: a signal (Ctrl-C, the client's SIGTERM)
	// ends it, and with it every call's command, which writes its reports
	// as a command a signal ends does.
	ctx         context.Context
	f           *cmdutil.Factory
	exec        Exec
	serviceArgs []string

	// calls are the tool calls in progress, which a server that stops
	// lets send their results.
	calls sync.WaitGroup

	keyMu   sync.Mutex
	keyRead bool
	apiKey  string

	// ledger remembers the calls that create, for the calls that repeat
	// them; streams, over HTTP, tells a lost response stream from a call
	// the client cancelled.
	ledger  ledger
	streams *streams
	// reports are the files the calls wrote, which resources/read serves.
	reports reportFiles
}

// NewServer is the MCP server of testctl on f, its tools running the
// commands of the tree through exec (cmd/root.Run); readOnly offers no
// tool that starts, reruns or creates.
//
// The tools are registered in the background: inferring their schemas is
// most of the server's start-up, and the answer to initialize needs none
// of them. A request that does (tools/list, tools/call) waits for them.
func NewServer(ctx context.Context, f *cmdutil.Factory, exec Exec, readOnly bool) *mcp.Server {
	srv, _ := newServer(ctx, f, exec, readOnly)
	return srv
}

// newServer is NewServer, with the state of its calls.
func newServer(ctx context.Context, f *cmdutil.Factory, exec Exec, readOnly bool) (*mcp.Server, *server) {
	s := &server{ctx: ctx, f: f, exec: exec, serviceArgs: f.Globals.ServiceFlags()}
	srv := mcp.NewServer(&mcp.Implementation{Name: "testctl", Title: "testctl", Version: f.AppVersion}, &mcp.ServerOptions{
		Instructions: instructions,
		// No logging capability: logs go to stderr, never to the client.
		// The tools are the same for the server's life: no list_changed.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
		// Every tool has the same output type: its schema is inferred once.
		SchemaCache: mcp.NewSchemaCache(),
	})
	s.addResources(srv)
	ready := make(chan struct{})
	go func() {
		defer close(ready)
		s.addTools(srv, readOnly)
	}()
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if strings.HasPrefix(method, "tools/") {
				select {
				case <-ready:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return next(ctx, method, req)
		}
	})
	return srv, s
}

const instructions = `testctl runs AI-driven end-to-end tests of web applications on a test automation service.
The loop: start_run (waits for the verdict) → read the story of each test case that did not pass → get_logs for more →
fix the code → rerun_failed. Every result's text begins with its verdict, one word, with the exit code of the same testctl command:
passed, failed, error (a run ended ERROR or CANCELLED), timeout, interrupted, terminated (the wait ended early), started (runs
started without a wait), ok (a read that worked); usage (a bad argument: nothing was sent), auth, not-found, service
(the service or network failed), local (a file could not be read or written).
A run goes on when a wait ends early: wait_run resumes it.`

// key is the API key the server uses, to redact it from every result; a
// server without one has nothing to redact. It is read once: the config is
// the server's for its life, and a missing key must not ask the keyring
// again at every result.
func (s *server) key() string {
	s.keyMu.Lock()
	defer s.keyMu.Unlock()
	if !s.keyRead {
		s.keyRead = true
		if c, err := s.f.APIClient(); err == nil {
			s.apiKey = c.APIKey
		}
	}
	return s.apiKey
}

// call runs a tool's command line and builds its result, sending each
// line of the command's progress to the client as a progress notification
// when the request asked for them. known are the runs the call names, for
// a result that must say how to resume a wait on them.
func (s *server) call(ctx context.Context, req *mcp.CallToolRequest, args []string, k kind, known []string, more moreFunc) (*mcp.CallToolResult, Result, error) {
	p := s.progress(ctx, req)
	inv := s.invoke(ctx, args, p.send)
	p.settle(ctx)
	res, out := s.build(inv, k, known, more)
	return res, out, nil
}

// callKeep is call for a document whose longest list is cut to n entries
// (get_logs: a log has no page size of its own).
func (s *server) callKeep(ctx context.Context, req *mcp.CallToolRequest, args []string, n int, more moreFunc) (*mcp.CallToolResult, Result, error) {
	p := s.progress(ctx, req)
	inv := s.invoke(ctx, args, p.send)
	p.settle(ctx)
	inv.table = firstRows(inv.table, n)
	res, out := s.build(inv, readKind, nil, more)
	if out.Data != nil {
		doc := out.Data
		if field, list, set := longestList(&doc); list != nil && len(list) > n {
			set(list[:n])
			out.Data = doc
			cut := fmt.Sprintf("%s: kept the first %d of %d entries; %s", field, n, len(list), more(field, n, len(list)))
			out.Cut = strings.Trim(out.Cut+"; "+cut, "; ")
			if tc, ok := res.Content[0].(*mcp.TextContent); ok {
				tc.Text += "\nCut: " + cut + "\n"
			}
		}
	}
	return res, out, nil
}

// progressGap is how long the result of a call waits after its last
// progress notification: the test case that ends with the run has its
// notification sent just before the result, and a client that reads both
// in one chunk may drop the notification (the TypeScript SDK hands
// notifications to onprogress a microtask after it has handled, and
// forgotten, the response). A gap lets the client read them apart; the
// result carries every end all the same.
const progressGap = 50 * time.Millisecond

// progressSender sends a call's progress notifications; nil sends none.
type progressSender struct {
	send func(line string)
	mu   sync.Mutex
	last time.Time // when the last notification was sent
}

// settle waits, at most progressGap, until the last notification has had
// progressGap to reach the client before the result follows it.
func (p *progressSender) settle(ctx context.Context) {
	p.mu.Lock()
	wait := progressGap - time.Since(p.last)
	p.mu.Unlock()
	if wait <= 0 || wait > progressGap {
		return
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// progress sends a progress notification per line of the wait, numbered, when the
// client gave a progress token; it never blocks the command on a client
// that went away.
func (s *server) progress(ctx context.Context, req *mcp.CallToolRequest) *progressSender {
	if req == nil || req.Session == nil || req.Params == nil {
		return &progressSender{}
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return &progressSender{}
	}
	p := &progressSender{}
	n := 0
	p.send = func(line string) {
		// The wait's own lines only (a start, a status, a test case's end,
		// a heartbeat): the summary and the story come in the result. A
		// client may also read notifications that arrive with the result
		// after it, and drop them (the TypeScript SDK does).
		if !progressLine().MatchString(line) && !startedLine().MatchString(line) {
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if ctx.Err() != nil {
			return // the call was cancelled: its token is the client's no more
		}
		n++
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token, Progress: float64(n), Message: s.redact(termtext.SanitizeLine(line)),
		})
		p.last = time.Now()
	}
	return p
}

// checkReportPath keeps a report file inside the server's working
// directory: a relative path that does not climb out of it, nor through a
// symbolic link. The agent names the file; where it may write is the
// workspace the server was started in.
func checkReportPath(flag, path string) error {
	if !filepath.IsLocal(path) {
		return fmt.Errorf("%s %q must be a relative path inside the working directory (like reports/%s.xml), without ..", flag, path, flag)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("%s: the working directory cannot be read: %v", flag, err)
	}
	realWD, err := filepath.EvalSymlinks(wd)
	if err != nil {
		return fmt.Errorf("%s: the working directory cannot be read: %v", flag, err)
	}
	// The deepest part of the path that exists decides where it leads.
	dir := filepath.Join(wd, filepath.Dir(path))
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			if rel, err := filepath.Rel(realWD, real); err != nil || !filepath.IsLocal(rel) && rel != "." {
				return fmt.Errorf("%s %q leads outside the working directory through a symbolic link", flag, path)
			}
			break
		}
		if dir == wd {
			break
		}
		dir = filepath.Dir(dir)
	}
	if info, err := os.Lstat(filepath.Join(wd, path)); err == nil && info.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("%s %q is a symbolic link: name a regular file inside the working directory", flag, path)
	}
	return nil
}
