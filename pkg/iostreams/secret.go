package iostreams

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/term"
)

// maxSecretLen bounds what ReadSecret reads from a non-terminal stdin, so
// piping a large file by mistake fails instead of filling memory.
const maxSecretLen = 64 << 10

// ReadSecret reads a secret such as an API key without echoing it. On a
// terminal it prompts on stderr and reads with echo off; otherwise it reads
// the first line of stdin, so `echo $KEY | testctl auth login` works and no
// secret ever has to appear in argv. The result is trimmed of surrounding
// white space; an empty stdin yields "" and no error.
func (s *IOStreams) ReadSecret(prompt string) (string, error) {
	if s.IsStdinTTY() {
		fmt.Fprint(s.ErrOut, prompt)
		if f, ok := s.In.(fder); ok && isTerminal(f) {
			b, err := term.ReadPassword(int(f.Fd()))
			// The user's Enter was not echoed either; end the prompt line.
			fmt.Fprintln(s.ErrOut)
			if err != nil {
				return "", fmt.Errorf("reading from terminal: %w", err)
			}
			return strings.TrimSpace(string(b)), nil
		}
	}
	line, err := readLine(s.In)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(line), nil
}

// readLine reads up to the first newline one byte at a time, so nothing
// after the line is consumed from a stdin that other code may read next.
func readLine(r io.Reader) (string, error) {
	var b strings.Builder
	buf := make([]byte, 1)
	for b.Len() <= maxSecretLen {
		n, err := r.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				return b.String(), nil
			}
			b.WriteByte(buf[0])
		}
		if errors.Is(err, io.EOF) {
			return b.String(), nil
		}
		if err != nil {
			return "", fmt.Errorf("reading standard input: %w", err)
		}
	}
	return "", fmt.Errorf("standard input: first line longer than %d bytes", maxSecretLen)
}
