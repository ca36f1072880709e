package iostreams

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrReaderGone is a write to stdout after whatever read it went away:
// `testctl … | head -1` once head has its line. It is no failure of the
// command: the command stops writing, says nothing, and ends with the
// code it would have had (a wait's verdict; 0 for a list). The process
// must receive SIGPIPE as a notification (Main does), or Go ends it by the
// signal at the first such write, before any code is decided.
var ErrReaderGone = errors.New("stdout's reader went away")

// Stdout is f as the process's stdout (System's): a write to its closed
// pipe fails with ErrReaderGone. It keeps the file's descriptor, so stdout
// is still known for the terminal it is.
func Stdout(f *os.File) io.Writer { return stdoutFile{f} }

type stdoutFile struct{ *os.File }

func (s stdoutFile) Write(p []byte) (int, error) {
	n, err := s.File.Write(p)
	if errors.Is(err, syscall.EPIPE) {
		err = fmt.Errorf("%w: %w", ErrReaderGone, err)
	}
	return n, err
}
