package userfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
)

func TestReadsARegularFileWithinItsBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, rule := range []Rule{{Max: 5}, {Max: 5, Regular: true}} {
		if data, err := Read(t.Context(), path, rule); err != nil || string(data) != "12345" {
			t.Errorf("%+v: %q %v", rule, data, err)
		}
	}
	_, err := Read(t.Context(), path, Rule{Max: 4})
	if _, ok := errors.AsType[*TooLargeError](err); !ok || err.Error() != "larger than 4 bytes, the most testctl reads of it" || exitcode.Of(err) != exitcode.Local {
		t.Errorf("one byte over: %v", err)
	}
	if _, err := Read(t.Context(), filepath.Dir(path), Rule{Max: 5}); err == nil || !strings.Contains(err.Error(), "a directory, not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

func TestReadStream(t *testing.T) {
	if data, err := ReadStream(t.Context(), strings.NewReader("abc"), 3); err != nil || string(data) != "abc" {
		t.Errorf("%q %v", data, err)
	}
	if _, err := ReadStream(t.Context(), strings.NewReader("abcd"), 3); err == nil || !strings.Contains(err.Error(), "larger than 3 bytes") {
		t.Errorf("over: %v", err)
	}
	r, w, err := os.Pipe() // a stdin nobody closes
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := ReadStream(ctx, r, 3); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 512 << 10: "512 KiB", 100: "100 bytes", 1<<20 + 1: "1048577 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
