// Command gendocs writes the Markdown command reference, the man pages and
// the shell completion scripts from the cobra tree, and the tables of exit
// codes in README.md and docs/ from exitcode.Table, so they never drift
// from the code. Run it through `go generate ./...` at the repository root.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/pkg/iostreams"
)

func main() {
	out := flag.String("out", ".", "repository root to write docs/ and completions/ under (README.md and docs/ hold the exit code tables)")
	flag.Parse()
	if err := generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

// manDate is fixed so regenerating on another day changes nothing.
var manDate = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// tree builds the command tree as a user with no configuration sees it.
func tree() *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	f, _ := factory.New("", factory.Options{IOStreams: ios, LookupEnv: func(string) (string, bool) { return "", false }})
	cmd := root.NewCmdRoot(f)
	cmd.DisableAutoGenTag = true
	cmd.Version = ""
	return cmd
}

func generate(dir string) error {
	refDir := filepath.Join(dir, "docs", "reference")
	manDir := filepath.Join(dir, "docs", "man")
	compDir := filepath.Join(dir, "completions")
	for _, d := range []string{refDir, manDir, compDir} {
		// Start clean so a removed command leaves no stale page behind.
		if err := os.RemoveAll(d); err != nil {
			return err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := doc.GenMarkdownTreeCustom(tree(), refDir, func(string) string { return "" }, func(name string) string {
		return strings.TrimSuffix(name, ".md") + ".md"
	}); err != nil {
		return fmt.Errorf("markdown: %w", err)
	}
	header := &doc.GenManHeader{Title: "TESTCTL", Section: "1", Source: "testctl", Manual: "testctl manual", Date: &manDate}
	if err := doc.GenManTree(tree(), header, manDir); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	if err := fixManPages(manDir); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	if err := completions(compDir); err != nil {
		return err
	}
	return exitCodes(dir)
}

func completions(dir string) error {
	scripts := map[string]func(*cobra.Command, *os.File) error{
		"testctl.bash": func(c *cobra.Command, f *os.File) error { return c.GenBashCompletionV2(f, true) },
		"testctl.zsh":  func(c *cobra.Command, f *os.File) error { return c.GenZshCompletion(f) },
		"testctl.fish": func(c *cobra.Command, f *os.File) error { return c.GenFishCompletion(f, true) },
		"testctl.ps1":  func(c *cobra.Command, f *os.File) error { return c.GenPowerShellCompletionWithDesc(f) },
	}
	for name, gen := range scripts {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		err = gen(tree(), f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
