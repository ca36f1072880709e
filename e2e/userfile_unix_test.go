//go:build unix

package e2e_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/sandbox"
)

// --quarantine /dev/zero used to grow to 24 GB, deaf to SIGTERM: it is read
// no further than the file's bound, a file that could not be read (exit 8),
// before anything is asked of the service.
func TestQuarantineFromADeviceIsBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	e := cmdtest.New(t)
	r := runGuarded(t, e, "run", "wait", "r0a1b2", "--quarantine", "/dev/zero").Expect(t, 8)
	cmdtest.Contains(t, "stderr", r.Stderr, "reading --quarantine /dev/zero: larger than 4 MiB, the most testctl reads of it")
	if n := e.Requests("GET /v1/run/r0a1b2"); n != 0 {
		t.Errorf("%d requests for the run", n)
	}
}

// --quarantine naming a FIFO whose writer never writes used to wait for
// good, deaf to SIGTERM: the signal ends it with its code.
func TestQuarantineFromASilentFIFOGivesWayToASignal(t *testing.T) {
	e := cmdtest.New(t)
	fifo := mkfifo(t, e, "quarantine.yaml")
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan cmdtest.Result, 1)
	go func() {
		done <- e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "wait", "r0a1b2", "--quarantine", fifo)
	}()
	// A writer's open succeeds once the command has the FIFO open to read:
	// it is then waiting for a line that never comes.
	w := openWriter(t, fifo)
	defer w.Close()
	cancel(cmdutil.ErrTerminated)
	select {
	case r := <-done:
		r.Expect(t, 143)
		cmdtest.Contains(t, "stderr", r.Stderr, "terminated")
	case <-time.After(20 * time.Second):
		w.Close() // its end of file lets the read end
		t.Fatal("SIGTERM did not end the read of the FIFO")
	}
	if n := e.Requests("GET /v1/run/r0a1b2"); n != 0 {
		t.Errorf("%d requests for the run", n)
	}
}

// The default .testctl/quarantine.yaml is a file: a FIFO there (or a
// device) is refused at once, exit 8, never waited on.
func TestDefaultQuarantineThatIsAFIFOIsRefused(t *testing.T) {
	e := cmdtest.New(t)
	if err := os.MkdirAll(filepath.Join(e.Dir, ".testctl"), 0o755); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, e, ".testctl/quarantine.yaml")
	t.Chdir(e.Dir)
	r := runGuarded(t, e, "run", "wait", "r0a1b2").Expect(t, 8)
	cmdtest.Contains(t, "stderr", r.Stderr, "reading the quarantine file .testctl/quarantine.yaml: a named pipe (FIFO), not a regular file")
}

// --applications <(…) is a pipe named /dev/fd/N: it is read as before.
func TestApplicationsFromAProcessSubstitution(t *testing.T) {
	e := cmdtest.New(t)
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
		_, _ = w.WriteString(`[{"applicationShortId": "app_sandbox-web"}]`)
		w.Close()
	}()
	body := e.DryRun(t, cmdtest.RunOptions{}, "--plan", sandbox.PlanPassing, "--applications", path)
	if apps, _ := body["applications"].([]any); len(apps) != 1 {
		t.Errorf("applications: %v", body["applications"])
	}
}

// openWriter opens the FIFO's write end once a reader has it open (until
// then a non-blocking open fails with ENXIO).
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
