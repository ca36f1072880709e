package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestManPagesRender renders every committed man page as man does, in a
// terminal of 80 and of 60 columns, in a UTF-8 locale and in an ASCII one,
// with every troff warning on (man -l docs/man/testctl-run-start.1 printed
// "cannot adjust line" twice), and fails on any warning.
func TestManPagesRender(t *testing.T) {
	groff, err := exec.LookPath("groff")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("groff is not installed; CI must run this test (.ci/run installs Debian's groff-base)")
		}
		t.Skip("skipping: groff is not installed (.ci/run installs it: Debian's groff-base)")
	}
	pages, err := filepath.Glob(filepath.Join("..", "..", "docs", "man", "*.1"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no man pages: %v", err)
	}
	for _, page := range pages {
		for _, device := range []string{"utf8", "ascii"} {
			for _, columns := range []int{80, 60} {
				// man-db sets the line length two columns short of the terminal.
				cmd := exec.Command(groff, "-man", "-T"+device, "-ww", "-z", fmt.Sprintf("-rLL=%dn", columns-2), page)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Run(); err != nil || stderr.Len() > 0 {
					t.Errorf("%s (-T%s, %d columns): %v\n%s", filepath.Base(page), device, columns, err, strings.TrimSpace(stderr.String()))
				}
			}
		}
	}
}

// The rewriting names the characters troff knows and lets long words
// break, but never inside an example, which is not filled.
func TestFixManPage(t *testing.T) {
	in := ".TH \"T\" \"1\"\n" +
		"the badge, … — and \u2713\n" +
		"  app_ID[,env=env_ID][,url=URL][,name=NAME][,build=build_ID]\n" +
		"\\fB--short\\fP=[] \\[la]repeatable\\[ra]\n" +
		".EX\n" +
		"  --app 'app_web,env=env_staging,url=https://pr-42.preview.example.com'\n" +
		".EE\n"
	want := ".TH \"T\" \"1\"\n.ad l\n" +
		"the badge, .\\|.\\|. \\(em and \\[u2713]\n" +
		"  app_ID\\:[,\\:env=env_ID]\\:[,\\:url=URL]\\:[,\\:name=NAME]\\:[,\\:build=build_ID]\n" +
		"\\fB--short\\fP=[] \\[la]repeatable\\[ra]\n" +
		".EX\n" +
		"  --app 'app_web,env=env_staging,url=https://pr-42.preview.example.com'\n" +
		".EE\n"
	if got := fixManPage(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
