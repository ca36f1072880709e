//go:build unix

package userfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
)

// /dev/zero never ends: it is refused where a regular file is needed, and
// read no further than the bound where a stream may be given.
func TestADeviceIsBoundedOrRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	_, err := Read(t.Context(), "/dev/zero", Rule{Max: 4 << 20})
	if _, ok := errors.AsType[*TooLargeError](err); !ok || !strings.Contains(err.Error(), "larger than 4 MiB") {
		t.Errorf("bounded: %v", err)
	}
	_, err = Read(t.Context(), "/dev/zero", Rule{Max: 4 << 20, Regular: true})
	if _, ok := errors.AsType[*NotRegularError](err); !ok || err.Error() != "a device, not a regular file" || exitcode.Of(err) != exitcode.Local {
		t.Errorf("refused: %v", err)
	}
}

// A FIFO nobody writes: refused at once where a regular file is needed;
// elsewhere the wait for a writer, in the open itself, ends with ctx.
func TestAFIFONobodyWritesEndsWithTheContext(t *testing.T) {
	fifo := mkfifo(t)
	_, err := Read(t.Context(), fifo, Rule{Max: 10, Regular: true})
	if err == nil || err.Error() != "a named pipe (FIFO), not a regular file" {
		t.Errorf("refused: %v", err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := Read(ctx, fifo, Rule{Max: 10})
		done <- err
	}()
	waitForGoroutineIn(t, "userfile.readStream(")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	// Release the open left waiting, so the test ends with no goroutine
	// blocked: a writer comes and goes.
	if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
}

// A FIFO whose writer is already waiting for a reader (mkfifo p; producer
// > p &) is read whole: looking at it takes nothing of what it writes.
func TestAFIFOWithAWaitingWriterIsRead(t *testing.T) {
	fifo := mkfifo(t)
	go func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // waits for the reader
			_, _ = w.WriteString("[]")
			w.Close()
		}
	}()
	if data, err := Read(t.Context(), fifo, Rule{Max: 10}); err != nil || string(data) != "[]" {
		t.Errorf("%q %v", data, err)
	}
}

// A regular file is read whatever the context, which ends only a wait.
func TestARegularFileIsReadUnderAnEndedContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if data, err := Read(ctx, path, Rule{Max: 1}); err != nil || string(data) != "x" {
		t.Errorf("regular: %q %v", data, err)
	}
	if _, err := Read(ctx, mkfifo(t), Rule{Max: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("FIFO: %v", err)
	}
}

// A FIFO whose writer is there but silent: the read, through the poller,
// ends with ctx too.
func TestASilentWriterEndsWithTheContext(t *testing.T) {
	fifo := mkfifo(t)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := Read(ctx, fifo, Rule{Max: 10})
		done <- err
	}()
	w := openWriter(t, fifo) // returns once the reader has opened the FIFO
	defer w.Close()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// --applications <(…) is a pipe named /dev/fd/N: read whole when its
// writer ends.
func TestAProcessSubstitutionIsRead(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	path := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
	if _, err := os.Stat(path); err != nil {
		t.Skip("no /dev/fd here")
	}
	go func() {
		_, _ = w.WriteString(`[{"applicationId": "app_1"}]`)
		w.Close()
	}()
	if data, err := Read(t.Context(), path, Rule{Max: 1 << 10}); err != nil || string(data) != `[{"applicationId": "app_1"}]` {
		t.Errorf("%q %v", data, err)
	}
}

func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	return path
}

// openWriter opens the FIFO's write end once a reader has it open (before
// that, a non-blocking open fails with ENXIO).
func openWriter(t *testing.T, fifo string) *os.File {
	t.Helper()
	for {
		w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			return w
		}
		if !errors.Is(err, syscall.ENXIO) {
			t.Fatal(err)
		}
		runtime.Gosched()
	}
}

// waitForGoroutineIn returns once a goroutine's stack shows fn: it is
// blocked there, or about to be.
func waitForGoroutineIn(t *testing.T, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for !strings.Contains(string(buf[:runtime.Stack(buf, true)]), fn) {
		runtime.Gosched()
	}
}
