// Package idcheck checks the identifiers a command line gives (a run short
// id, a UUID) before anything is sent: a bad one is a usage error (exit 2),
// never a request.
package idcheck

import (
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

// ValidateRunID rejects what cannot be a run short id before anything is
// sent: an empty argument from an unset CI variable, one with spaces or
// control characters, or one that would change the request's path (a . or
// .., / \ ? # %: api.CheckID, which the client applies again to every id it
// puts in a path): the one check of a run short id, for every command taking one.
func ValidateRunID(id string) error {
	if id == "" {
		return exitcode.FlagErrorf(`empty run short id "" (is the variable holding it set?)`)
	}
	if strings.ContainsFunc(id, unicode.IsSpace) {
		return exitcode.FlagErrorf("invalid run short id %q", id)
	}
	if err := api.CheckID("run short id", id); err != nil {
		return &exitcode.FlagError{Err: err}
	}
	return nil
}

// IsUUID reports whether s is a UUID in its canonical 8-4-4-4-12 hex form.
func IsUUID(s string) bool { return uuidPattern().MatchString(s) }

var uuidPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})
