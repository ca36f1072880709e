package mcp

import (
	"regexp"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/verdict"
)

// The instructions name every verdict word a result can begin with: the
// exit codes' words (verdict.Word), started, and a read's ok.
func TestInstructionsNameEveryVerdictWord(t *testing.T) {
	words := []string{word(exitcode.OK, readKind), word(exitcode.OK, startKind)}
	for _, code := range []int{exitcode.OK, exitcode.Failed, exitcode.Usage, exitcode.RunError, exitcode.Auth, exitcode.NotFound,
		exitcode.Service, exitcode.Timeout, exitcode.Local, exitcode.Interrupted, exitcode.Terminated} {
		words = append(words, verdict.Word(code, false))
	}
	for _, w := range words {
		if !regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(w) + `[\s,(]`).MatchString(instructions) {
			t.Errorf("the instructions do not name the verdict %q:\n%s", w, instructions)
		}
	}
}
