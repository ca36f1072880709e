package iostreams

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// maxSecretLen bounds what ReadSecret reads, so piping a large file by
// mistake fails instead of filling memory.
const maxSecretLen = 64 << 10

// ErrInterrupted is Ctrl-C at a hidden prompt. It wraps context.Canceled so
// that the command ends as every interrupted command does (exit 130).
var ErrInterrupted = fmt.Errorf("interrupted at the prompt: %w", context.Canceled)

// ErrNoPrompt is ReadSecret on a terminal that SetNotTerminal keeps from
// being prompted on: nobody may be there to type, so nothing is read.
var ErrNoPrompt = errors.New("standard input is a terminal, and prompts are off")

// Keys a hidden prompt understands. The terminal is in raw mode while it
// reads, so it delivers them as bytes instead of acting on them itself.
const (
	keyCtrlC     = 0x03
	keyCtrlD     = 0x04
	keyBackspace = 0x08
	keyCtrlU     = 0x15
	keyDelete    = 0x7f
)

// ReadSecret reads a secret such as an API key without echoing it. On a
// terminal it prompts on stderr and reads keystrokes with echo off, where
// Ctrl-C returns ErrInterrupted; otherwise it reads the first line of stdin,
// so `echo $KEY | testctl auth login` works and no secret ever has to appear
// in argv. The result is trimmed of surrounding white space; an empty stdin
// yields "" and no error. When ctx ends first (a signal from outside), it
// returns ctx's error at once, the terminal restored. A terminal taken for
// a pipe (SetNotTerminal) gives ErrNoPrompt at once.
func (s *IOStreams) ReadSecret(ctx context.Context, prompt string) (string, error) {
	if s.promptRefused() {
		return "", ErrNoPrompt
	}
	read := func() (string, error) { return readLine(s.In, false) }
	if s.IsStdinTTY() {
		fmt.Fprint(s.ErrOut, prompt)
		read = func() (string, error) { return readKeystrokes(s.In) }
	}
	if f, ok := s.In.(fder); ok && s.IsStdinTTY() && isTerminal(f) {
		// The user's Enter was not echoed either; end the prompt line.
		defer fmt.Fprintln(s.ErrOut)
		// Raw mode for the time of one hidden line. x/term's ReadPassword
		// keeps the terminal's own Ctrl-C, whose SIGINT the signal handler
		// of a running command swallows: the prompt then ignored Ctrl-C. In
		// raw mode Ctrl-C arrives as a byte, and the terminal's state is
		// restored however reading ends.
		fd := int(f.Fd())
		state, err := term.MakeRaw(fd)
		if err != nil {
			return "", fmt.Errorf("reading from terminal: %w", err)
		}
		defer func() { _ = term.Restore(fd, state) }()
	}
	secret, err := Cancellable(ctx, read)
	return strings.TrimSpace(secret), err
}

// Cancellable returns read's result, or ctx's error as soon as ctx ends
// (Ctrl-C, SIGTERM): reading a stdin that never closes, or opening a FIFO
// nobody writes to, must not hold the process past a signal. Such a read
// cannot be interrupted: it is left behind, and ends with the process,
// which is ending.
func Cancellable[T any](ctx context.Context, read func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := read()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// readKeystrokes reads one line typed at a raw terminal: Enter ends it,
// Ctrl-C interrupts, Ctrl-D ends it early, Backspace and Ctrl-U edit it.
func readKeystrokes(r io.Reader) (string, error) { return readLine(r, true) }

// readLine reads up to the first newline (with keys, a line typed at a raw
// terminal: see readKeystrokes) one byte at a time, so nothing after the
// line is consumed from a stdin that other code may read next.
func readLine(r io.Reader, keys bool) (string, error) {
	what, reading := "standard input: first line", "reading standard input"
	if keys {
		what, reading = "terminal: line", "reading from terminal"
	}
	var line []byte
	buf := make([]byte, 1)
	for len(line) <= maxSecretLen {
		n, err := r.Read(buf)
		if n == 1 {
			switch c := buf[0]; {
			case c == '\n' || keys && (c == '\r' || c == keyCtrlD):
				return string(line), nil
			case !keys:
				line = append(line, c)
			case c == keyCtrlC:
				return "", ErrInterrupted
			case c == keyBackspace || c == keyDelete:
				if len(line) > 0 {
					_, size := utf8.DecodeLastRune(line)
					line = line[:len(line)-size]
				}
			case c == keyCtrlU:
				line = line[:0]
			default:
				line = append(line, c)
			}
		}
		if errors.Is(err, io.EOF) {
			return string(line), nil
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", reading, err)
		}
	}
	return "", fmt.Errorf("%s longer than %d bytes", what, maxSecretLen)
}
