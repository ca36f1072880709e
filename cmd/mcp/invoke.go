package mcp

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/output"
)

// Exec runs one command line of testctl's tree on a factory and returns its
// exit code: cmd/root.Run, given by the root so that this package need not
// import the tree it is part of.
type Exec func(ctx context.Context, f *cmdutil.Factory, args []string) int

// invocation is what one command line left: its stdout (the -o json
// document), the table it prints without -o json (its data for the text),
// its stderr (progress, the summary with the failure story, hints), its
// exit code, and the next steps it suggested, as tool calls.
type invocation struct {
	stdout string
	table  string
	stderr string
	code   int
	steps  *toolSteps
}

// hiddenEnv are variables a tool's command must not see: they name files
// the commands write for a CI job (the step summary, the step's outputs,
// the exit code files of the GitHub Action), which an agent's call must
// not append to behind the job's back.
var hiddenEnv = []string{"GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "TESTCTL_EXIT_CODE_FILE", "TESTCTL_VERDICT_FILE"}

// invoke runs a command of the tree the way a user would type it, with the
// server's own dependencies: the config (and the sandbox of --sandbox)
// loaded once for the server, the client, the clock. Only the streams are
// the call's, and the output is always the -o json document, with the
// table beside it; the next steps the command suggests name tools. Every line
// the command writes to stderr goes to progress as it is written (the wait
// prints one at each test case's end), so a long wait reports as it goes.
func (s *server) invoke(ctx context.Context, args []string, progress func(line string)) invocation {
	s.calls.Add(1)
	defer s.calls.Done()
	var stdout, table bytes.Buffer
	stderr := &lineWriter{onLine: progress}
	ios := iostreams.New(strings.NewReader(""), &stdout, stderr)
	ios.SetNoColorEnv(true)
	child := *s.f
	child.IOStreams = ios
	child.Globals = &cmdutil.GlobalFlags{}
	child.Command = ""
	child.LookupEnv = func(key string) (string, bool) {
		if slices.Contains(hiddenEnv, key) {
			return "", false
		}
		return s.f.LookupEnv(key)
	}
	child.Output = func() (output.Options, error) {
		return output.Options{Format: output.FormatJSON, Beside: &table}, nil
	}
	steps := newToolSteps()
	cmdCtx, done := s.commandContext(ctx)
	defer done()
	code := s.exec(nextstep.With(cmdCtx, steps), &child, slices.Concat(s.serviceArgs, args))
	stderr.flush()
	return invocation{stdout: stdout.String(), table: table.String(), stderr: stderr.String(), code: code, steps: steps}
}

// lineWriter keeps what is written and hands each complete line to onLine.
type lineWriter struct {
	mu      sync.Mutex
	all     bytes.Buffer
	pending []byte
	onLine  func(string)
}

var _ io.Writer = (*lineWriter)(nil)

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Write(p)
	w.pending = append(w.pending, p...)
	for {
		i := bytes.IndexByte(w.pending, '\n')
		if i < 0 {
			break
		}
		line := string(w.pending[:i])
		w.pending = w.pending[i+1:]
		if w.onLine != nil && strings.TrimSpace(line) != "" {
			w.onLine(line)
		}
	}
	return len(p), nil
}

func (w *lineWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) > 0 && w.onLine != nil && strings.TrimSpace(string(w.pending)) != "" {
		w.onLine(string(w.pending))
	}
	w.pending = nil
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

// commandContext is the context a call's command runs on: the server's,
// whose signal ends the command (the wait stops, the reports are written,
// the code is 130 or 143 as the signal's cause says), and which ends too
// when the client cancels the call (call, the request's). The SDK does not
// end a call's context when the server's ends: a wait would hold the
// server's exit for as long as its --timeout.
func (s *server) commandContext(call context.Context) (_ context.Context, done func()) {
	if s.ctx == nil {
		return call, func() {}
	}
	ctx, cancel := context.WithCancelCause(s.ctx)
	stop := context.AfterFunc(call, func() { cancel(context.Cause(call)) })
	return ctx, func() {
		stop()
		cancel(nil)
	}
}
