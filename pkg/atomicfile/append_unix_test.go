//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// appendWithin runs Append on path and fails the test if it has not
// returned within a bound far above what it takes: a blocked open is
// released by a reader the test opens, so the test fails rather than hangs.
func appendWithin(t *testing.T, path string, data string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- Append(path, []byte(data), 0o644) }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			defer r.Close()
		}
		<-done
		t.Fatalf("Append to %s still blocked after 10 s", path)
		return nil
	}
}

// A named pipe nothing reads is an error at once, naming it, where open(2)
// used to wait for a reader for good.
func TestAppendToAPipeNothingReadsFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	err := appendWithin(t, path, "lost\n")
	if err == nil || !strings.Contains(err.Error(), "named pipe that nothing reads") {
		t.Errorf("got %v, want the named pipe named", err)
	}
}

// A named pipe that a reader has open is written to, as before.
func TestAppendToAPipeWithAReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := appendWithin(t, path, "read\n"); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || string(got) != "read\n" {
		t.Errorf("the reader got %q, %v", got, err)
	}
}
