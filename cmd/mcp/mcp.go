// Package mcp implements `testctl mcp`: a Model Context Protocol server
// whose tools are testctl's commands, for coding agents. Each tool runs the
// command a user would type, in this process, with the server's config,
// client and sandbox: the agent gets the same verdict (pkg/verdict), the
// same failure story (pkg/evidence, through the reports) and the same
// checks before anything is sent as every other report and command.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/termtext"
)

// Options are the flags of `testctl mcp`.
type Options struct {
	HTTP     string
	ReadOnly bool
}

// NewCmdMCP builds `testctl mcp` and `testctl mcp config`; exec runs a
// command line of the tree (cmd/root.Run).
func NewCmdMCP(f *cmdutil.Factory, exec Exec, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR] [--read-only]",
		Short: "Serve testctl's commands to coding agents over the Model Context Protocol",
		Long: `Serve the Model Context Protocol, so that a coding agent (Claude Code, Cursor,
VS Code's agent mode) can start runs, wait for their verdict with progress,
read why a test case failed, rerun what failed, list and create test cases,
read logs and check a tunnel, with this machine's profiles and keyring.

Over stdio by default: the client starts 'testctl mcp' and talks on its
stdin and stdout, which carry protocol messages only (logs go to stderr).
With --http ADDR it serves streamable HTTP at http://ADDR/mcp, on a loopback
address only; a request from a web page of another origin is refused.

Tools: start_run, wait_run, get_run, run_report, list_runs, rerun_failed,
list_test_cases, create_test_case, get_logs, tunnel_status. Each result is
the command's -o json document with a short text: the verdict first, the
story of what did not pass, then what to call next. --read-only offers no
tool that starts, reruns or creates.

The reports a call wrote come back as resource links; runs and test case
logs are resources (testctl://runs/{id},
testctl://runs/{id}/test-cases/{rtc}/logs/{kind}). start_run, rerun_failed
and create_test_case take an idempotency_key, and a call re-issued after its
response stream was lost waits on what the first started.

'testctl mcp config --client claude|cursor|vscode' prints the snippet that
adds this server to a client. See docs/agents.md.`,
		Example: `  # Rehearse with an agent against the embedded sandbox
  testctl --sandbox mcp

  # Only tools that read, for a profile of the production project
  testctl --profile prod mcp --read-only

  # Streamable HTTP on loopback
  testctl mcp --http 127.0.0.1:8765`,
		Args: cobra.NoArgs,
		PreRunE: func(*cobra.Command, []string) error {
			return validate(opts)
		},
		RunE: cmdutil.RunE(f, opts, runF, func(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
			return run(ctx, f, exec, opts)
		}),
	}
	cmd.Flags().StringVar(&opts.HTTP, "http", "", "serve streamable HTTP on this loopback `ADDR` (127.0.0.1:8765) instead of stdio")
	cmd.Flags().BoolVar(&opts.ReadOnly, "read-only", false, "offer only the tools that read: no start_run, rerun_failed or create_test_case")
	cmd.AddCommand(newCmdConfig(f, nil))
	return cmd
}

func validate(opts *Options) error {
	if opts.HTTP == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(opts.HTTP)
	if err != nil {
		return exitcode.FlagErrorf("--http %q is not HOST:PORT: use a loopback address such as 127.0.0.1:8765", opts.HTTP)
	}
	if !isLoopback(host) {
		return exitcode.FlagErrorf("--http %s: the server listens on a loopback address only (127.0.0.1, ::1 or localhost), "+
			"since its tools act with this machine's key: use 127.0.0.1:%s", host, portOf(opts.HTTP))
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func portOf(addr string) string {
	_, port, _ := net.SplitHostPort(addr)
	return port
}

func run(ctx context.Context, f *cmdutil.Factory, exec Exec, opts *Options) error {
	// The config is loaded once, for every call (and --sandbox starts the
	// one sandbox they share), while the server answers initialize: a
	// broken one is said on stderr now, and by every tool it fails.
	loaded := make(chan struct{})
	go func() {
		defer close(loaded)
		if _, err := f.Config(); err != nil {
			fmt.Fprintf(f.IOStreams.ErrOut, "testctl mcp: error: %s\n", termtext.Sanitize(err.Error()))
		}
	}()
	// The factory's cleanup stops the sandbox the load may be starting.
	defer func() { <-loaded }()
	srv, s := newServer(ctx, f, exec, opts.ReadOnly)
	if opts.HTTP != "" {
		return serveHTTP(ctx, f, srv, s, opts.HTTP)
	}
	return serveStdio(ctx, f, srv, &s.calls)
}

// serveStdio speaks the protocol on stdin and stdout. Stdout carries the
// protocol's frames only: when it is the process's stdout, os.Stdout is
// pointed at stderr for as long as the server runs, so that no stray
// write of any package can put a line between two frames.
func serveStdio(ctx context.Context, f *cmdutil.Factory, srv *mcp.Server, calls *sync.WaitGroup) error {
	out := f.IOStreams.Out
	if fd, ok := out.(interface{ Fd() uintptr }); ok && fd.Fd() == os.Stdout.Fd() {
		frames := os.Stdout
		os.Stdout = os.Stderr
		defer func() { os.Stdout = frames }()
		out = frames
	}
	fmt.Fprintln(f.IOStreams.ErrOut, "testctl mcp: serving the Model Context Protocol on stdio")
	// The connection outlives a signal by as long as the calls in progress
	// take to send their results (callsAnswered): the SDK closes it as
	// soon as the context it runs on ends.
	serving, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	go func() {
		select {
		case <-ctx.Done():
			callsAnswered(calls)
			stop()
		case <-serving.Done():
		}
	}()
	err := srv.Run(serving, &lineTransport{in: f.IOStreams.In, out: out, stop: serving.Done()})
	return ended(ctx, err)
}

// ended: the client closing the connection is the normal end of a server.
// A signal ends it with the signal's code.
func ended(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed):
		return nil
	}
	return &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf("mcp server: %w", err)}
}

// callsAnswered waits, after a signal, for the calls in progress to end
// (at most callsEnd: their commands run on the server's context,
// commandContext, end with the signal and write their reports within a
// second), then resultsSent for their results to leave.
func callsAnswered(calls *sync.WaitGroup) {
	ended := make(chan struct{})
	go func() {
		calls.Wait()
		close(ended)
	}()
	select {
	case <-ended:
		time.Sleep(resultsSent)
	case <-time.After(callsEnd):
	}
}

// callsEnd bounds how long the HTTP server waits, after a signal, for the
// calls in progress to end; resultsSent, for their results to be sent.
const (
	callsEnd    = 3 * time.Second
	resultsSent = 250 * time.Millisecond
)

// serveHTTP serves streamable HTTP at /mcp on a loopback address until ctx
// ends (Ctrl-C).
func serveHTTP(ctx context.Context, f *cmdutil.Factory, srv *mcp.Server, s *server, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf("listening on %s: %w", addr, err)}
	}
	handler := s.httpHandler(srv, ln.Addr().String(), true)
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(f.IOStreams.ErrOut, "testctl mcp: serving the Model Context Protocol at http://%s/mcp\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf("mcp server: %w", err)}
	case <-ctx.Done():
		// The calls in progress end with the signal too and send their
		// results; a client's open event stream, which never ends by
		// itself, is not waited for.
		callsAnswered(&s.calls)
		_ = hs.Close()
		return ctx.Err()
	}
}

// sameOrigin refuses a request that a web page of another origin sent (its
// Origin header names another host): a page the user opened must not
// drive the server by DNS rebinding or a cross-site request. Clients that
// are not browsers send no Origin. The SDK's handler refuses, besides, a
// Host header that is not loopback.
func sameOrigin(addr string, next http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(addr)
	allowed := map[string]bool{"http://" + addr: true, "http://localhost:" + port: true,
		"http://127.0.0.1:" + port: true, "http://[::1]:" + port: true}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !allowed[origin] {
			http.Error(w, fmt.Sprintf("Forbidden: origin %q is not this server's", origin), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
