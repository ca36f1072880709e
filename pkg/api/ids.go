package api

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/testctl/testctl/pkg/exitcode"
)

// MaxIDLength is the longest id put in a path. The service's ids are short
// (r0a1b2, r0a1b2-3, runner-ci-42, a UUID); a longer one is not an id.
const MaxIDLength = 128

// The nouns of the ids that go into paths, for InvalidIDError.
const (
	nounRun     = "run short id"
	nounCase    = "run test case short id"
	nounRunner  = "runner id"
	nounProject = "project UUID"
)

// InvalidIDError is an id that cannot go into a request's path: nothing
// was sent. Whoever gave it, the user or the service, the path it would
// make is not the operation's.
type InvalidIDError struct {
	Noun string // "run short id", "run test case short id", …
	ID   string
	Why  string
}

func (e *InvalidIDError) Error() string {
	id := e.ID
	if r := []rune(id); len(r) > 40 {
		id = string(r[:39]) + "…"
	}
	return fmt.Sprintf("invalid %s %q: %s", e.Noun, id, e.Why)
}

// ExitCode is the contract's usage code: bad input, nothing sent.
func (e *InvalidIDError) ExitCode() int { return exitcode.Usage }

// CheckID refuses an id that would change the path it is put in, or is
// no id at all: empty, a dot segment ("." or "..", which a server or proxy
// resolves to the parent path), one holding a separator, a query, a
// fragment or an escape (/ \ ? # %), control characters, or longer than
// MaxIDLength. Every operation checks its ids with it before building its
// URL; commands check what the user gave with it too, to name the flag.
func CheckID(noun, id string) error {
	why := ""
	switch {
	case id == "":
		why = "it is empty"
	case id == "." || id == "..":
		why = "a . or .. segment would change the request's path"
	case len(id) > MaxIDLength:
		why = fmt.Sprintf("it is longer than %d characters", MaxIDLength)
	case strings.ContainsAny(id, `/\?#%`):
		why = `/ \ ? # and % would change the request's path`
	case strings.ContainsFunc(id, unicode.IsControl):
		why = "it contains control characters"
	default:
		return nil
	}
	return &InvalidIDError{Noun: noun, ID: id, Why: why}
}

// segment is id checked (CheckID) and escaped for a path: the escape is a
// second line of defence, should the check ever let through something a
// path would read as syntax.
func segment(noun, id string) (string, error) {
	if err := CheckID(noun, id); err != nil {
		return "", err
	}
	return url.PathEscape(id), nil
}
