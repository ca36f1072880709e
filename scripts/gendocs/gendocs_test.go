package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
)

// TestGeneratedFilesAreFresh fails when a command's help, a flag or a
// completion changed without `go generate ./...`: the committed reference,
// man pages and completion scripts must be exactly what the tree produces.
func TestGeneratedFilesAreFresh(t *testing.T) {
	repo := filepath.Join("..", "..")
	fresh := t.TempDir()
	copyPages(t, repo, fresh, exitCodePages...)
	if err := generate(fresh); err != nil {
		t.Fatal(err)
	}
	stale := diffTrees(t, fresh, repo, "docs/reference", "docs/man", "completions")
	for _, name := range exitCodePages {
		if !bytes.Equal(read(t, filepath.Join(fresh, name)), read(t, filepath.Join(repo, name))) {
			stale = append(stale, name+" (its exit code table)")
		}
	}
	if len(stale) > 0 {
		t.Fatalf("generated files are out of date: %v\nrun: go generate ./...", stale)
	}
}

// TestFreshnessCheckNoticesAChangedFlag proves the check above can fail: a
// changed usage string shows up as a difference.
func TestFreshnessCheckNoticesAChangedFlag(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	copyPages(t, filepath.Join("..", ".."), a, exitCodePages...)
	copyPages(t, filepath.Join("..", ".."), b, exitCodePages...)
	if err := generate(a); err != nil {
		t.Fatal(err)
	}
	if err := generate(b); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(b, "docs", "reference", "testctl_config_get.md")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte("Print a setting's effective value"), []byte("Print a value"), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("fixture text not found; update this test")
	}
	if err := os.WriteFile(page, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if stale := diffTrees(t, a, b, "docs/reference"); len(stale) != 1 {
		t.Fatalf("want exactly the edited page reported, got %v", stale)
	}
}

// diffTrees lists files under the given subdirectories that differ between
// two roots, or exist in only one.
func diffTrees(t *testing.T, want, got string, subdirs ...string) []string {
	t.Helper()
	var stale []string
	for _, sub := range subdirs {
		w, g := files(t, filepath.Join(want, sub)), files(t, filepath.Join(got, sub))
		for name, wd := range w {
			if gd, ok := g[name]; !ok || !bytes.Equal(wd, gd) {
				stale = append(stale, filepath.Join(sub, name))
			}
		}
		for name := range g {
			if _, ok := w[name]; !ok {
				stale = append(stale, filepath.Join(sub, name)+" (no longer generated)")
			}
		}
	}
	sort.Strings(stale)
	return stale
}

func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, path)
		out[rel] = data
		return nil
	})
	return out
}

// TestExitCodeTablesListEveryCode: each page with a table of exit codes
// names every code of exitcode.Table, 143 included, and a table edited by
// hand (or a code added without `go generate`) is stale.
func TestExitCodeTablesListEveryCode(t *testing.T) {
	for _, name := range exitCodePages {
		page := read(t, filepath.Join("..", "..", name))
		for _, c := range exitcode.Table {
			if !bytes.Contains(page, []byte(fmt.Sprintf("\n| %d | %s |", c.Code, c.Meaning))) {
				t.Errorf("%s: exit code %d missing from its table", name, c.Code)
			}
		}
		edited := bytes.Replace(page, []byte("| 143 |"), []byte("| 142 |"), 1)
		fresh, err := withExitCodes(edited)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if bytes.Equal(fresh, edited) {
			t.Errorf("%s: an edited table is not regenerated", name)
		}
	}
	if _, err := withExitCodes([]byte("# no markers\n")); err == nil {
		t.Error("a page without the markers is not an error")
	}
}

func copyPages(t *testing.T, from, to string, names ...string) {
	t.Helper()
	for _, name := range names {
		dst := filepath.Join(to, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, read(t, filepath.Join(from, name)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
