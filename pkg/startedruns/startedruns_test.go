package startedruns

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRecordFindsRunsByServiceNewestFirstAndStaysSmall(t *testing.T) {
	dir := t.TempDir()
	rec := ForEnv(func(k string) string { return map[string]string{"HOME": dir}[k] })
	if rec.Path != filepath.Join(dir, ".cache", "testctl", "started-runs.json") {
		t.Errorf("path %s", rec.Path)
	}
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	if err := rec.Add(Run{Service: "https://a", ShortID: "r1", URL: "https://a/r1", CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
	if err := rec.Add(Run{Service: "https://a", ShortID: "r1", URL: "https://a/r1-again", CreatedAt: at.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if run, ok := rec.Find("https://a", "r1"); !ok || run.URL != "https://a/r1-again" || !run.CreatedAt.Equal(at.Add(time.Hour)) {
		t.Errorf("newest r1: %+v %v", run, ok)
	}
	if _, ok := rec.Find("https://b", "r1"); ok {
		t.Error("a run of another service was found")
	}
	for i := range keep + 10 {
		if err := rec.Add(Run{Service: "https://a", ShortID: fmt.Sprintf("x%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := rec.Find("https://a", "r1"); ok {
		t.Errorf("the record keeps more than %d runs", keep)
	}
	if info, err := os.Stat(rec.Path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("record file: %v %v", info, err)
	}
	// A damaged file is an empty record, never a failure.
	if err := os.WriteFile(rec.Path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.Find("https://a", "x1"); ok {
		t.Error("found a run in a damaged file")
	}
	if err := rec.Add(Run{Service: "https://a", ShortID: "y"}); err != nil {
		t.Fatal(err)
	}
}

func TestRunsOfAService(t *testing.T) {
	dir := t.TempDir()
	rec := ForEnv(func(k string) string { return map[string]string{"XDG_CACHE_HOME": dir}[k] })
	if err := rec.Add(Run{Service: "https://a", ShortID: "r1"}, Run{Service: "https://b", ShortID: "r2"}); err != nil {
		t.Fatal(err)
	}
	if err := rec.Add(Run{Service: "https://a", ShortID: "r3"}); err != nil {
		t.Fatal(err)
	}
	got := ""
	for _, r := range rec.Runs("https://a") {
		got += r.ShortID + " "
	}
	if got != "r3 r1 " || len(rec.Runs("")) != 3 {
		t.Errorf("runs of https://a: %q, of all: %d", got, len(rec.Runs("")))
	}
}
