package iostreams_test

import (
	"bufio"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/iostreams"
)

// Once stdout's reader has gone, every way of writing there succeeds
// without writing, so that no command ends on it; the streams say so, also
// through the guard of GitHub Actions, for work done only for stdout.
func TestStdoutWhoseReaderWentAwayWritesNothingAndSaysSo(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ios := iostreams.New(strings.NewReader(""), iostreams.Stdout(w), io.Discard)
	if _, err := io.WriteString(ios.Out, "read\n"); err != nil || ios.ReaderGone() {
		t.Fatalf("a write that was read: %v, gone %v", err, ios.ReaderGone())
	}
	r.Close()
	ios.GuardWorkflowCommands()
	big := strings.Repeat("x", 128<<10) // past bufio's buffer: written through WriteString
	writes := map[string]func() (int, error){
		"Write":       func() (int, error) { return ios.Out.Write([]byte("line\n")) },
		"WriteString": func() (int, error) { return io.WriteString(ios.Out, big) },
		"bufio": func() (int, error) {
			b := bufio.NewWriter(ios.Out)
			n, _ := b.WriteString(big)
			return n, b.Flush()
		},
	}
	for name, write := range writes {
		if n, err := write(); err != nil || n == 0 {
			t.Errorf("%s to a closed pipe: %d, %v", name, n, err)
		}
	}
	if !ios.ReaderGone() {
		t.Error("the streams do not know the reader went away")
	}
	ios.FlushGuards()
}

// The process's stderr, like its stdout, survives a reader that went away
// (`testctl … 2>&1 | head -1`): a write there is no error.
func TestSystemStderrSurvivesAClosedPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	saved := os.Stderr
	os.Stderr = w
	ios := iostreams.System()
	os.Stderr = saved
	if _, err := ios.ErrOut.Write([]byte("error: nobody reads this\n")); err != nil {
		t.Errorf("a write to a closed stderr failed: %v", err)
	}
}
