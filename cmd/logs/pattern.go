package logs

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/testctl/testctl/pkg/exitcode"
)

// checkURLPattern compiles --url locally, case-insensitively as the service
// matches it, so a typo exits 2 before a request. The service's regular
// expression flavour is not published and is likely richer than Go's RE2: a
// pattern RE2 rejects only for a construct other flavours have (lookaround,
// backreferences, possessive quantifiers, atomic groups) is passed on
// unchecked, with a warning, rather than refused.
func checkURLPattern(p string) (warning string, err error) {
	if strings.TrimSpace(p) == "" {
		return "", exitcode.FlagErrorf("--url must not be empty; leave it out to match every URL")
	}
	_, cerr := regexp.Compile("(?i)" + p)
	if cerr == nil {
		return "", nil
	}
	var se *syntax.Error
	if errors.As(cerr, &se) && perlOnly(se) {
		return "--url uses " + se.Expr + ", which cannot be checked locally; it is sent to the service as is", nil
	}
	msg := cerr.Error()
	if se != nil {
		msg = string(se.Code) + ": `" + se.Expr + "`"
	}
	return "", exitcode.FlagErrorf("--url %q is not a valid regular expression: %s", p, msg)
}

// perlOnly reports whether RE2 rejected a construct that Perl-style engines
// accept.
func perlOnly(se *syntax.Error) bool {
	e := se.Expr
	switch se.Code {
	case syntax.ErrInvalidPerlOp: // (?= (?! (?>
		return strings.HasPrefix(e, "(?=") || strings.HasPrefix(e, "(?!") || strings.HasPrefix(e, "(?>")
	case syntax.ErrInvalidNamedCapture: // (?<= (?<!
		return strings.HasPrefix(e, "(?<=") || strings.HasPrefix(e, "(?<!")
	case syntax.ErrInvalidEscape: // \1 … \9, \k<name>
		return len(e) == 2 && (e[1] >= '1' && e[1] <= '9' || e[1] == 'k')
	case syntax.ErrInvalidRepeatOp: // a*+ a++ a?+
		return len(e) >= 2 && strings.HasSuffix(e, "+") && strings.ContainsRune("*+?}", rune(e[len(e)-2]))
	}
	return false
}
