package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The repository stands on its own: a clone has no design documents beside
// it and no author's home directory, so the README and docs/ link only to
// files of the repository, and each link reaches a file that exists.
func TestDocsLinkOnlyInsideTheRepository(t *testing.T) {
	for _, page := range markdownPages(t) {
		for _, bad := range docsLinkProblems(t, page) {
			t.Errorf("%s: %s", page, bad)
		}
	}
}

// TestDocsLinkCheckFindsWhatLeaves proves the check above can fail.
func TestDocsLinkCheckFindsWhatLeaves(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.md")
	text := "The design is in `../shared/` and /work/shared/cli-contract.md.\n" +
		"[gone](missing.md) [up](../../outside.md) [abs](/etc/passwd) [ok](page.md#top) [web](https://example.com) [anchor](#x)\n"
	if err := os.WriteFile(page, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got := docsLinkProblems(t, page)
	if len(got) != 5 {
		t.Errorf("want 5 problems (../shared, /work/, missing.md, ../../outside.md, /etc/passwd), got %d: %q", len(got), got)
	}
}

func markdownPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md"}
	err := filepath.WalkDir("docs", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			pages = append(pages, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

var (
	outsidePath = regexp.MustCompile(`\.\./shared\b|/work/`)
	inlineLink  = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	refLink     = regexp.MustCompile(`(?m)^\s*\[[^\]]+\]:\s*(\S+)`)
	schemeLink  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// docsLinkProblems lists what in page points outside the repository: the
// paths of the design's old home, absolute links, and relative links to
// files that are missing or above the repository's root.
func docsLinkProblems(t *testing.T, page string) []string {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	var problems []string
	for _, m := range outsidePath.FindAllString(text, -1) {
		problems = append(problems, "names a path outside the repository: "+m)
	}
	root, err := filepath.Abs(filepath.Dir(page))
	if err != nil {
		t.Fatal(err)
	}
	if page == "README.md" || strings.HasPrefix(filepath.ToSlash(page), "docs/") {
		root, _ = filepath.Abs(".")
	}
	var targets []string
	for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
		targets = append(targets, m[1])
	}
	for _, m := range refLink.FindAllStringSubmatch(text, -1) {
		targets = append(targets, m[1])
	}
	for _, target := range targets {
		target = strings.Trim(target, "<>")
		if schemeLink.MatchString(target) || strings.HasPrefix(target, "#") {
			continue // a web address, or a place in the same page
		}
		if strings.HasPrefix(target, "/") {
			problems = append(problems, "links to an absolute path: "+target)
			continue
		}
		file, _, _ := strings.Cut(target, "#")
		path, err := filepath.Abs(filepath.Join(filepath.Dir(page), file))
		if err != nil {
			t.Fatal(err)
		}
		if rel, err := filepath.Rel(root, path); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			problems = append(problems, "links outside the repository: "+target)
			continue
		}
		if _, err := os.Stat(path); err != nil {
			problems = append(problems, "links to a file that does not exist: "+target)
		}
	}
	return problems
}
