// Package iostreams carries the three standard streams together with what
// commands need to know about them: whether each is a terminal, whether
// colour is allowed, how wide the terminal is. Commands take an *IOStreams
// instead of touching os.Stdout, so tests can swap in buffers and pretend
// to be (or not be) a terminal.
package iostreams

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/term"
)

// defaultWidth is used when the stream is not a terminal or its width is
// unknown.
const defaultWidth = 80

type ttyState uint8

const (
	ttyUnknown ttyState = iota
	ttyYes
	ttyNo
)

// IOStreams is safe for concurrent use; the exported streams themselves are
// only as safe as the writers they hold.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	mu            sync.Mutex
	stdinTTY      ttyState
	stdoutTTY     ttyState
	stderrTTY     ttyState
	colorDisabled bool // --no-color
	noColorEnv    bool // NO_COLOR is set, whatever its value
	termWidth     int  // 0: ask the terminal
	columns       int  // COLUMNS, 0 when unset or not a width
	dumb          bool // TERM=dumb: a terminal that cannot redraw
	notTerminal   bool // SetNotTerminal: every stream is taken for a pipe

	// The workflow-command guards (GitHub Actions) and stderr past them.
	outGuard, errGuard *commandGuard
	commandsOut        io.Writer

	spinMu  sync.Mutex
	spinner *spinnerLine
}

// System returns streams bound to the process's standard streams. Nothing is
// asked of the terminal here: TTY detection happens on first use, and the
// terminal is never queried with escape sequences (some terminals never
// answer, which would hang the command).
func System() *IOStreams { return New(os.Stdin, Stdout(os.Stdout), Stderr(os.Stderr)) }

// Test returns streams over fresh buffers; none of them is a terminal until
// a test says so with SetStdoutTTY and friends.
func Test() (ios *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{
		In:        in,
		Out:       out,
		ErrOut:    &lockedWriter{w: errOut},
		stdinTTY:  ttyNo,
		stdoutTTY: ttyNo,
		stderrTTY: ttyNo,
	}, in, out, errOut
}

type fder interface{ Fd() uintptr }

// lockedWriter makes every write to stderr whole and one at a time:
// several goroutines write there (concurrent starts and their notices,
// --debug's blocks, the live view), and a line must never be cut into
// another. It keeps the file's descriptor, so that stderr is still known
// for the terminal it is.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// String is what was written, when the stream is a buffer (tests).
func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s, ok := l.w.(fmt.Stringer); ok {
		return s.String()
	}
	return ""
}

// Fd is the descriptor of the file written to, when it is one.
func (l *lockedWriter) Fd() uintptr {
	if f, ok := l.w.(fder); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

func isTerminal(v any) bool {
	f, ok := v.(fder)
	return ok && term.IsTerminal(int(f.Fd()))
}

// isTTY resolves a cached TTY state, detecting it on first use; with
// SetNotTerminal, no stream is one.
func (s *IOStreams) isTTY(state *ttyState, stream any) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.notTerminal && s.detect(state, stream)
}

// detect is the stream's own answer, whatever SetNotTerminal says; s.mu held.
func (s *IOStreams) detect(state *ttyState, stream any) bool {
	if *state == ttyUnknown {
		*state = ttyOf(isTerminal(stream))
	}
	return *state == ttyYes
}

// SetNotTerminal makes every stream behave as a pipe, terminal or not: no
// colour, no redraws, full-width tables, no prompt (see ReadSecret).
func (s *IOStreams) SetNotTerminal(v bool) { set(s, &s.notTerminal, v) }

// promptRefused reports whether stdin is a terminal that SetNotTerminal
// keeps from being prompted on.
func (s *IOStreams) promptRefused() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.notTerminal && s.detect(&s.stdinTTY, s.In)
}

func ttyOf(yes bool) ttyState {
	if yes {
		return ttyYes
	}
	return ttyNo
}

// set stores v in a field that s.mu guards.
func set[T any](s *IOStreams, field *T, v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*field = v
}

func (s *IOStreams) IsStdinTTY() bool  { return s.isTTY(&s.stdinTTY, s.In) }
func (s *IOStreams) IsStdoutTTY() bool { return s.isTTY(&s.stdoutTTY, s.Out) }
func (s *IOStreams) IsStderrTTY() bool { return s.isTTY(&s.stderrTTY, s.ErrOut) }

// SameTerminal reports whether stdout and stderr are one terminal, as in a
// shell where neither is redirected: what goes to one shows beside what
// went to the other.
func (s *IOStreams) SameTerminal() bool {
	if !s.IsStdoutTTY() || !s.IsStderrTTY() {
		return false
	}
	out, ok := fileOf(s.Out)
	errOut, errOK := fileOf(s.ErrOut)
	if !ok || !errOK {
		return false
	}
	a, err := out.Stat()
	b, errB := errOut.Stat()
	return err == nil && errB == nil && os.SameFile(a, b)
}

// fileOf is the file a stream writes to, through the streams' wrappers.
func fileOf(w io.Writer) (*os.File, bool) {
	for {
		switch v := w.(type) {
		case *os.File:
			return v, true
		case *stdoutFile:
			return v.f, true
		case *lockedWriter:
			w = v.w
		default:
			return nil, false
		}
	}
}

// CanRedrawStderr reports whether stderr is a terminal that lines can be
// redrawn on in place: a spinner, a live block. TERM=dumb cannot.
func (s *IOStreams) CanRedrawStderr() bool {
	s.mu.Lock()
	dumb := s.dumb
	s.mu.Unlock()
	return !dumb && s.IsStderrTTY()
}

func (s *IOStreams) SetStdinTTY(v bool)  { set(s, &s.stdinTTY, ttyOf(v)) }
func (s *IOStreams) SetStdoutTTY(v bool) { set(s, &s.stdoutTTY, ttyOf(v)) }
func (s *IOStreams) SetStderrTTY(v bool) { set(s, &s.stderrTTY, ttyOf(v)) }

// TerminalWidth is the width of the terminal on stdout, or 80 when stdout is
// not a terminal. It is asked each time because the terminal may be resized;
// COLUMNS narrows it, and is the width of a terminal that does not say.
func (s *IOStreams) TerminalWidth() int {
	return s.width(s.IsStdoutTTY(), s.Out)
}

// ErrTerminalWidth is TerminalWidth for stderr, where progress and the
// summary of a wait go, whether or not stdout is redirected.
func (s *IOStreams) ErrTerminalWidth() int {
	return s.width(s.IsStderrTTY(), s.ErrOut)
}

func (s *IOStreams) width(tty bool, stream any) int {
	s.mu.Lock()
	w, columns := s.termWidth, s.columns
	s.mu.Unlock()
	switch {
	case w > 0:
		return w
	case !tty:
		return defaultWidth
	}
	if f, ok := stream.(fder); ok {
		// Never wider than the terminal: a line fitted to a stale COLUMNS
		// would wrap, and a redraw would leave its start behind.
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			if columns > 0 {
				return min(w, columns)
			}
			return w
		}
	}
	if columns > 0 {
		return columns
	}
	return defaultWidth
}

// SetTerminalWidth fixes the width TerminalWidth and ErrTerminalWidth
// report; 0 restores asking the terminal.
func (s *IOStreams) SetTerminalWidth(w int) { set(s, &s.termWidth, w) }

// SetTerminalEnv takes what the environment says of the terminal: TERM
// (dumb: no redraws; CanRedrawStderr) and COLUMNS (a width; see
// TerminalWidth).
func (s *IOStreams) SetTerminalEnv(termName, columns string) {
	n, err := strconv.Atoi(strings.TrimSpace(columns))
	if err != nil || n <= 0 {
		n = 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dumb = termName == "dumb"
	s.columns = n
}

// New returns streams over in, out and errOut, whose terminals are
// detected on first use as System's are: a test that runs a command on a
// pseudo-terminal gives it the terminal's file.
func New(in io.Reader, out, errOut io.Writer) *IOStreams {
	_, noColor := os.LookupEnv("NO_COLOR")
	return &IOStreams{In: in, Out: out, ErrOut: &lockedWriter{w: errOut}, noColorEnv: noColor}
}
