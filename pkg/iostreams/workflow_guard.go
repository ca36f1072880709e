package iostreams

import (
	"bytes"
	"crypto/rand"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// GitHub Actions reads workflow commands from every line a step prints:
// `::name::value` at the start of a line (after white space), and the
// older `##[name]value` anywhere in a line (actions/runner#4692). Its lines
// end at "\n" and at a bare "\r" too. Service text (a test case's name, an
// evaluation, a console message of the tested page) can hold a command;
// printed as is it would run: mask values, raise annotations, end
// testctl's own with `::stop-commands::`. The guard prints every line in
// which the runner would find a command inside a `::stop-commands::TOKEN`
// … `::TOKEN::` block with a token nobody can guess, so the runner shows
// it and obeys nothing in it. Other lines pass unchanged, so data on stdout
// (-q, JSON) stays readable by the next program; testctl's own annotations
// go around the guard (WorkflowCommands).

// commandGuard is one stream's guard. The part of a line that could still
// turn out to hold a command is held back; the rest (a prompt, the start of
// a long line) is written at once. Should the rest of a line whose start
// is out turn out to hold one, the guard ends the line there and blocks
// the rest: the runner then reads the start alone, which holds none.
type commandGuard struct {
	mu      sync.Mutex
	w       io.Writer
	token   string
	pending []byte // the part of the current line not written yet
	started bool   // the current line's start is written, and held no command
	command bool   // pending holds a command: held to the end of the line
}

// GuardWorkflowCommands installs the guard on stdout and stderr. The
// factory calls it when GITHUB_ACTIONS=true; off GitHub Actions nothing
// changes.
func (s *IOStreams) GuardWorkflowCommands() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.commandsOut != nil {
		return
	}
	token := "testctl-" + rand.Text() // 128 random bits: nobody can guess it
	s.commandsOut = s.ErrOut
	s.outGuard = &commandGuard{w: s.Out, token: token}
	s.errGuard = &commandGuard{w: s.ErrOut, token: token}
	s.Out, s.ErrOut = s.outGuard, s.errGuard
}

// WorkflowCommands is where testctl writes its own workflow commands (the
// ::error annotations): stderr itself, past the guard, after what the
// guard still held.
func (s *IOStreams) WorkflowCommands() io.Writer {
	s.mu.Lock()
	raw := s.commandsOut
	s.mu.Unlock()
	if raw == nil {
		return s.ErrOut
	}
	s.FlushGuards()
	return raw
}

// FlushGuards writes the partial lines the guards hold: at the end of a
// command, and before an annotation, so that the log keeps its order.
func (s *IOStreams) FlushGuards() {
	s.mu.Lock()
	guards := []*commandGuard{s.outGuard, s.errGuard}
	s.mu.Unlock()
	for _, g := range guards {
		if g != nil {
			g.flush()
		}
	}
}

func (g *commandGuard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for rest := p; len(rest) > 0; {
		end := len(rest)
		if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
			end = nl + 1
		}
		g.pending = append(g.pending, rest[:end]...)
		rest = rest[end:]
		var err error
		switch {
		case g.pending[len(g.pending)-1] == '\n':
			err = g.writePending()
			g.started = false
		case g.command: // a long line need not be searched again
		case holdsCommand(g.pending, g.started):
			g.command = true
		case !mayHoldCommand(g.pending, g.started):
			_, err = g.w.Write(g.pending)
			g.pending, g.started = nil, true
		}
		if err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// ReaderGone is the guarded stream's (see Stdout).
func (g *commandGuard) ReaderGone() bool {
	r, ok := g.w.(readerGoner)
	return ok && r.ReaderGone()
}

func (g *commandGuard) flush() {
	g.mu.Lock()
	defer g.mu.Unlock()
	_ = g.writePending() // stderr that cannot be written has no one to tell
	g.started = false
}

// writePending writes the held part of a line, inside a stop-commands
// block when the runner would find a command in it (after ending the
// line, if its start is already written).
func (g *commandGuard) writePending() error {
	if len(g.pending) == 0 {
		return nil
	}
	part := g.pending
	g.pending, g.command = nil, false
	if !holdsCommand(part, g.started) {
		_, err := g.w.Write(part)
		return err
	}
	block := "::stop-commands::" + g.token + "\n" + strings.TrimSuffix(string(part), "\n") + "\n::" + g.token + "::\n"
	if g.started {
		block = "\n" + block
	}
	_, err := io.WriteString(g.w, block)
	return err
}

// holdsCommand reports whether the runner would find a command in part of
// a line: "##[" anywhere, or "::" at the start of one of the lines it
// reads (lines end at a bare "\r" too) after white space (the runner trims
// Unicode white space; invisible format characters are trimmed too, to be
// safe). When started, part follows the line's written start, where no
// line of the runner begins.
func holdsCommand(part []byte, started bool) bool {
	if bytes.Contains(part, []byte("##[")) {
		return true
	}
	for i, seg := range bytes.Split(bytes.TrimSuffix(part, []byte("\n")), []byte("\r")) {
		if (i > 0 || !started) && strings.HasPrefix(trimLead(seg), "::") {
			return true
		}
	}
	return false
}

// mayHoldCommand reports whether part of a line, not ended yet and holding
// no command, could hold one once the rest of the line is written: it ends
// with "#" or "\r", or the runner's last line in it could still start with
// "::" (after white space, whose last character the write may have cut).
// Nothing else can reach across the end of what is written.
func mayHoldCommand(part []byte, started bool) bool {
	if bytes.HasSuffix(part, []byte("#")) || bytes.HasSuffix(part, []byte("\r")) {
		return true
	}
	segs := bytes.Split(part, []byte("\r"))
	if len(segs) == 1 && started {
		return false
	}
	t := trimLead(segs[len(segs)-1])
	// A write may end inside a character: white space, maybe, once whole.
	return strings.HasPrefix("::", t) || !utf8.FullRuneInString(t)
}

func trimLead(b []byte) string {
	return strings.TrimLeftFunc(string(b), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.In(r, unicode.Cf, unicode.Cc)
	})
}
