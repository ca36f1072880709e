package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestAppendCreatesThenAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	for _, s := range []string{"one\n", "two\n"} {
		if err := Append(path, []byte(s), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if err != nil || string(b) != "one\ntwo\n" || fi.Mode().Perm()&^0o640 != 0 {
		t.Errorf("%v: %q, mode %v", err, b, fi.Mode())
	}
	if err := Append(filepath.Join(path, "under-a-file"), []byte("x"), 0o644); err == nil {
		t.Error("appending under a file succeeded")
	}
}
