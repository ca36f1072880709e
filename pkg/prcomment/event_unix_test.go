//go:build unix

package prcomment

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An event file that is a FIFO nobody writes is refused at once, never
// waited on.
func TestEventFileThatIsAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "event.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := pullRequestNumber(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a named pipe (FIFO), not a regular file") {
			t.Errorf("got %v", err)
		}
	case <-time.After(10 * time.Second): // a guard: the refusal takes no time
		t.Fatal("still reading the FIFO after 10 s")
	}
}
