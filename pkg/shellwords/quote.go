package shellwords

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/termtext"
)

var shellSafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`) })

// Word is a value from the service (a run's or test case's short id)
// as one word of a command printed for the user to paste: on one line,
// without control characters, and quoted when a shell would read it as
// more than one word or run part of it (an id "r1;rm -rf ~").
func Word(s string) string { return Quote(termtext.SanitizeLine(s)) }

// Quote quotes s for a POSIX shell when it needs it.
func Quote(s string) string {
	if shellSafe().MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// WaitCommand is the command line that waits on runs, given their short
// ids as the service gave them and the global flags that chose the service
// (see cmdutil.GlobalFlags.ServiceArgs): the next step after a start, the way to resume, or to
// take up a run a lost start may have created.
func WaitCommand(args, ids []string) string {
	words := slices.Concat([]string{"testctl"}, args, []string{"run", "wait"})
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = Word(id)
	}
	// An id the service chose that starts with "-" would be read as a
	// flag (--junit=FILE writes where it says; quoting does not change
	// that); after "--" it is an argument, which run wait refuses.
	if slices.ContainsFunc(quoted, func(w string) bool { return strings.HasPrefix(w, "-") }) {
		words = append(words, "--")
	}
	return strings.Join(append(words, quoted...), " ")
}
