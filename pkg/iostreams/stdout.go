package iostreams

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
	"syscall"
)

// Stdout is f as the process's stdout (System's). Once whatever read it has
// gone away (a write fails with EPIPE: `testctl … | head -1` once head has
// its line), every write succeeds without writing. A closed stdout is no
// failure of the command, so it never becomes an error: an error would
// travel up in place of the command's own and decide its exit code, where a
// command that had decided one (a wait's verdict, a start that failed
// beside one that did not, a tunnel that did not become healthy) must end
// with it, its reports and outputs written. Work done only for stdout, such
// as paging through a list, asks ReaderGone and stops early.
//
// The process must receive SIGPIPE as a notification (Main does), or Go
// ends it by the signal at the first such write. It keeps the file's
// descriptor, so stdout is still known for the terminal it is; it does not
// embed the file, whose WriteString and ReadFrom would bypass Write.
func Stdout(f *os.File) io.Writer { return &stdoutFile{f: f} }

// Stderr is f as the process's stderr, with Stdout's rule: once its reader
// has gone (`testctl … 2>&1 | head -1`), writes succeed without writing. A
// closed stderr, like a closed stdout, never changes the exit code.
func Stderr(f *os.File) io.Writer { return &stdoutFile{f: f} }

type stdoutFile struct {
	f    *os.File
	gone atomic.Bool
}

func (s *stdoutFile) Write(p []byte) (int, error) {
	if s.gone.Load() {
		return len(p), nil
	}
	n, err := s.f.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		s.gone.Store(true)
		return len(p), nil
	}
	return n, err
}

func (s *stdoutFile) Fd() uintptr { return s.f.Fd() }

// ReaderGone reports whether what read this stdout has gone away.
func (s *stdoutFile) ReaderGone() bool { return s.gone.Load() }

// readerGoner is a stdout that can tell its reader went away: Stdout's, or
// a guard around it.
type readerGoner interface{ ReaderGone() bool }

// ReaderGone reports whether what read stdout has gone away (see Stdout):
// whatever is still written there is read by nobody.
func (s *IOStreams) ReaderGone() bool {
	g, ok := s.Out.(readerGoner)
	return ok && g.ReaderGone()
}
