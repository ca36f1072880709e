package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/testctl/testctl/pkg/exitcode"
)

// exitCodePages hold a table of exit codes between the markers
//
//	<!-- exit-codes:begin -->
//	<!-- exit-codes:end -->
//
// which the generator fills from exitcode.Table, so the README and the
// guides can never lack a code the program exits with. `begin causes` adds
// the column of typical causes.
var exitCodePages = []string{"README.md", filepath.Join("docs", "exit-codes.md"), filepath.Join("docs", "ci.md"), filepath.Join("docs", "contract.md")}

var exitCodeBlock = regexp.MustCompile(`(?s)(<!-- exit-codes:begin( causes)? -->\n).*?(<!-- exit-codes:end -->)`)

// withExitCodes returns page with every marked block regenerated; a page
// without one is an error, so a marker deleted by mistake is noticed.
func withExitCodes(page []byte) ([]byte, error) {
	if !exitCodeBlock.Match(page) {
		return nil, fmt.Errorf("no <!-- exit-codes:begin --> … <!-- exit-codes:end --> block")
	}
	return exitCodeBlock.ReplaceAllFunc(page, func(block []byte) []byte {
		m := exitCodeBlock.FindSubmatch(block)
		var b bytes.Buffer
		b.Write(m[1])
		b.WriteString(exitcode.Markdown(len(m[2]) > 0))
		b.WriteString("\n")
		b.WriteString(exitcode.TableNote)
		b.WriteString("\n")
		b.Write(m[3])
		return b.Bytes()
	}), nil
}

// exitCodes regenerates the tables of exitCodePages under dir in place.
func exitCodes(dir string) error {
	for _, name := range exitCodePages {
		path := filepath.Join(dir, name)
		page, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fresh, err := withExitCodes(page)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if bytes.Equal(fresh, page) {
			continue
		}
		if err := os.WriteFile(path, fresh, 0o644); err != nil {
			return err
		}
	}
	return nil
}
