package iostreams

import (
	"bytes"
	"crypto/rand"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// GitHub Actions reads workflow commands (`::name::value`, and the older
// `##[name]value`) from any line a step prints, after leading white space.
// Service text (a test case's name, an evaluation, a console message of the
// tested page) can hold such a line; printed as is it would run: mask
// values, end testctl's own annotations with `::stop-commands::`. The guard
// prints every line that the runner would read as a command inside a
// `::stop-commands::TOKEN` … `::TOKEN::` block with a token nobody can
// guess, so the runner shows it and obeys nothing in it. Lines that are not
// commands pass unchanged, so data on stdout (-q, JSON) stays readable by
// the next program; testctl's own annotations go around the guard
// (WorkflowCommands).

// commandGuard is one stream's guard. A line is held back only while it
// could still become a command (leading space, then ":" or "#"); prompts
// and other partial lines are written at once.
type commandGuard struct {
	mu      sync.Mutex
	w       io.Writer
	token   string
	pending []byte // the start of a line that might be a command
	safe    bool   // the current line is known not to be a command
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
		nl := bytes.IndexByte(rest, '\n')
		end := len(rest)
		if nl >= 0 {
			end = nl + 1
		}
		chunk := rest[:end]
		rest = rest[end:]
		if g.safe {
			g.safe = nl < 0 // until the end of the line
			if _, err := g.w.Write(chunk); err != nil {
				return 0, err
			}
			continue
		}
		g.pending = append(g.pending, chunk...)
		if nl >= 0 || !mayBecomeCommand(g.pending) {
			g.safe = nl < 0 // a partial line that is no command
			if err := g.writePending(); err != nil {
				return 0, err
			}
		}
	}
	return len(p), nil
}

func (g *commandGuard) flush() {
	g.mu.Lock()
	defer g.mu.Unlock()
	_ = g.writePending() // stderr that cannot be written has no one to tell
	g.safe = false
}

// writePending writes the held line, inside a stop-commands block when the
// runner would read it as a command.
func (g *commandGuard) writePending() error {
	if len(g.pending) == 0 {
		return nil
	}
	line := g.pending
	g.pending = nil
	if !isWorkflowCommand(line) {
		_, err := g.w.Write(line)
		return err
	}
	_, err := io.WriteString(g.w, "::stop-commands::"+g.token+"\n"+
		strings.TrimSuffix(string(line), "\n")+"\n::"+g.token+"::\n")
	return err
}

// commandPrefixes start a line the runner reads as a command.
var commandPrefixes = []string{"::", "##["}

// isWorkflowCommand reports whether the runner would read line as a
// command: after leading white space (the runner trims Unicode white
// space; invisible format characters are trimmed too, to be safe), it
// starts with "::" or "##[".
func isWorkflowCommand(line []byte) bool {
	t := trimLead(line)
	return slices.ContainsFunc(commandPrefixes, func(p string) bool { return strings.HasPrefix(t, p) })
}

// mayBecomeCommand reports whether a partial line could still turn out to
// be a command once the rest of it is written.
func mayBecomeCommand(partial []byte) bool {
	t := trimLead(partial)
	return slices.ContainsFunc(commandPrefixes, func(p string) bool { return strings.HasPrefix(t, p) || strings.HasPrefix(p, t) })
}

func trimLead(b []byte) string {
	return strings.TrimLeftFunc(string(b), func(r rune) bool {
		return unicode.IsSpace(r) || unicode.In(r, unicode.Cf, unicode.Cc)
	})
}
