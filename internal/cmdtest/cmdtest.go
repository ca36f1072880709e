// Package cmdtest runs the real command tree in-process against an embedded
// sandbox with a fake clock, so end-to-end tests of waiting commands take
// milliseconds and assert what a user sees: stdout, stderr, the exit code and
// the requests that reached the server.
package cmdtest

import (
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/keyring"
	"github.com/testctl/testctl/pkg/sandbox"
)

// Env is one user's machine: environment variables, a config file location,
// a clock, and a sandbox the settings point at.
type Env struct {
	t       testing.TB
	Clock   *clock.Fake
	Sandbox *sandbox.Instance
	Dir     string // a scratch directory; the config file lives in Dir/config
	// Keyring stands in for the OS keyring: an empty keyring.Fake of this
	// Env's own, so that no test reads or writes the machine's keyring.
	// keyring.System{} is the real one (asked only with a D-Bus session in
	// the Env's variables).
	Keyring keyring.Backend
	mu      sync.Mutex
	vars    map[string]string
}

// Result is what one command line produced.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Option adjusts the sandbox of a new Env.
type Option func(*sandbox.Options)

// WithSandbox sets sandbox options (the clock is always the Env's).
func WithSandbox(o sandbox.Options) Option {
	return func(so *sandbox.Options) { *so = o }
}

// New starts a sandbox on a free loopback port and an environment pointing
// at it with the project-scoped key. The sandbox stops when the test ends.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	fake := clock.NewFake(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC))
	so := sandbox.Options{}
	for _, o := range opts {
		o(&so)
	}
	so.Clock = fake
	inst, err := sandbox.Listen("127.0.0.1:0", so)
	if err != nil {
		t.Fatalf("starting sandbox: %v", err)
	}
	t.Cleanup(func() { _ = inst.Close() })
	dir := t.TempDir()
	return &Env{t: t, Clock: fake, Sandbox: inst, Dir: dir, Keyring: &keyring.Fake{}, vars: map[string]string{
		"TESTCTL_BASE_URL":        inst.BaseURL,
		"TESTCTL_LEGACY_BASE_URL": inst.LegacyBaseURL,
		"TESTCTL_API_KEY":         sandbox.ProjectKey,
		"TESTCTL_CONFIG":          filepath.Join(dir, "config", "config.yaml"),
		"HOME":                    dir,
	}}
}

// Setenv sets a variable; an empty value unsets it.
func (e *Env) Setenv(key, value string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if value == "" {
		delete(e.vars, key)
		return
	}
	e.vars[key] = value
}

// Getenv reads a variable of the Env.
func (e *Env) Getenv(key string) string {
	v, _ := e.lookup(key)
	return v
}

func (e *Env) lookup(key string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.vars[key]
	return v, ok
}

// Run executes a command line with empty stdin and non-terminal streams.
func (e *Env) Run(args ...string) Result {
	return e.RunWith(RunOptions{}, args...)
}

// RunOptions shape one invocation.
type RunOptions struct {
	Stdin string
	TTY   bool // stdin, stdout and stderr are terminals
	Width int  // the terminals' width in columns; 0 is the 80 of an unknown size
	Ctx   context.Context
	// Stdout, when set, takes stdout instead of a buffer (Result.Stdout is
	// then empty): a pipe whose reader went away, say.
	Stdout io.Writer
	// In, when set, is stdin instead of Stdin: a pipe nobody closes, say.
	In io.Reader
	// Stderr, when set, takes stderr instead of a buffer (Result.Stderr
	// is then empty).
	Stderr io.Writer
}

// RunWith executes a command line with the given stdin and terminal state.
func (e *Env) RunWith(ro RunOptions, args ...string) Result {
	e.t.Helper()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(ro.Stdin)
	ios.SetStdinTTY(ro.TTY)
	ios.SetStdoutTTY(ro.TTY)
	ios.SetStderrTTY(ro.TTY)
	ios.SetTerminalWidth(ro.Width)
	if ro.Stdout != nil {
		ios.Out = ro.Stdout
	}
	if ro.In != nil {
		ios.In = ro.In
	}
	if ro.Stderr != nil {
		ios.ErrOut = ro.Stderr
	}
	_, noColor := e.lookup("NO_COLOR")
	ios.SetNoColorEnv(noColor)
	code := e.run(cmp.Or(ro.Ctx, context.Background()), ios, args)
	return Result{Stdout: out.String(), Stderr: errOut.String(), Code: code}
}

// run executes a command line through the real command tree on ios.
func (e *Env) run(ctx context.Context, ios *iostreams.IOStreams, args []string) int {
	f, cleanup := e.factory(ios)
	defer cleanup()
	return root.Run(ctx, f, args)
}

// Factory is the factory a command line of this Env gets, on ios, for a
// test that drives what a command serves without its command line (the
// tools of `testctl mcp` over the MCP SDK's in-memory transport). It is
// cleaned up when the test ends.
func (e *Env) Factory(t testing.TB, ios *iostreams.IOStreams) *cmdutil.Factory {
	f, cleanup := e.factory(ios)
	t.Cleanup(cleanup)
	return f
}

func (e *Env) factory(ios *iostreams.IOStreams) (*cmdutil.Factory, func()) {
	return factory.New("test", factory.Options{
		IOStreams: ios, LookupEnv: e.lookup, Clock: e.Clock, Keyring: e.Keyring,
		Sandbox: sandbox.Options{Clock: e.Clock},
	})
}

// Requests returns how many requests of "METHOD /route" reached the sandbox.
func (e *Env) Requests(route string) int {
	return e.Sandbox.Server.Stats().Requests[route]
}

// WriteFile writes a file under Dir and returns its path.
func (e *Env) WriteFile(name, content string) string {
	e.t.Helper()
	path := filepath.Join(e.Dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// Contains fails the test unless s holds every want.
func Contains(t testing.TB, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}

// Expect fails the test unless the result has the exit code.
func (r Result) Expect(t testing.TB, code int) Result {
	t.Helper()
	if r.Code != code {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.Code, code, r.Stdout, r.Stderr)
	}
	return r
}

// Output joins both streams, for messages whose stream doesn't matter.
func (r Result) Output() string { return r.Stdout + r.Stderr }
