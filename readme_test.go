package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// The README's opening commands are the first thing a newcomer runs; they
// fail on an older Go with a message about go.mod, so the README says which
// Go they need, and must keep saying the version go.mod actually requires.
func TestReadmeNamesTheGoVersionOfGoMod(t *testing.T) {
	want := goModVersion(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	intro, _, _ := strings.Cut(string(readme), "\n## ")
	if !strings.Contains(intro, "Go "+want+" or newer") {
		t.Errorf("README's introduction does not say the commands need Go %s or newer (go.mod's go line):\n%s", want, intro)
	}
}

func goModVersion(t *testing.T) string {
	t.Helper()
	f, err := os.Open("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "go "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatal("go.mod has no go line")
	return ""
}
