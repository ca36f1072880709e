//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The config file is read only when it is a regular file of at most
// MaxFileBytes: a FIFO nobody writes is refused at once, and either is a
// file that could not be read (exit 8), saying why.
func TestOnlyARegularFileWithinItsBoundIsRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	large := filepath.Join(dir, "large.yaml")
	if err := os.WriteFile(large, []byte("# "+strings.Repeat("x", MaxFileBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		fifo:  "a named pipe (FIFO), not a regular file",
		large: "larger than 1 MiB, the most testctl reads of it",
	} {
		fs := globalFlags()
		_ = fs.Parse([]string{"--config-file", path})
		done := make(chan error, 1)
		go func() {
			_, err := Load(Options{Flags: fs, LookupEnv: env(nil)})
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(10 * time.Second): // a guard: the refusal takes no time
			t.Fatalf("%s: Load still reading after 10 s", path)
		}
		fe, ok := errors.AsType[*FileError](err)
		if !ok || fe.ExitCode() != 8 || !strings.Contains(err.Error(), "reading the config file "+path+": "+want) {
			t.Errorf("%s: %v, want exit 8 and %q", path, err, want)
		}
	}
}
