// Package lazyregexp holds regular expressions that are compiled on first
// use instead of at package initialisation.
//
// Every package linked into testctl is initialised on every start, whatever
// the command: a package-level regexp.MustCompile is paid by `testctl
// version`, `--help` and tab completion too. The validators of run start, run
// get, run list, the config and the sandbox cost about 0.3 ms of start-up
// together, most of it (one-pass compilation) for patterns that a given
// command line never evaluates. Go's own toolchain does the same
// (cmd/go/internal/lazyregexp).
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regexp.Regexp compiled when first used. It is safe for
// concurrent use.
type Regexp struct {
	str  string
	once sync.Once
	rx   *regexp.Regexp
}

// MatchString reports whether s contains a match of the expression.
func (r *Regexp) MatchString(s string) bool {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.str) })
	return r.rx.MatchString(s)
}

// inTest compiles eagerly under `go test`, so a mistyped pattern still fails
// at initialisation, in every test of the package that declares it, rather
// than only in the test that happens to reach it.
var inTest = len(os.Args) > 0 && strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

// New returns a lazily compiled regexp; like regexp.MustCompile, an invalid
// expression panics, at first use.
func New(str string) *Regexp {
	r := &Regexp{str: str}
	if inTest {
		r.MatchString("")
	}
	return r
}
