package output

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/testctl/testctl/pkg/shellwords"
)

// exitUsage is exitcode.Usage, which this package cannot import.
const exitUsage = 2

// JQError is a --jq expression that failed on the document (error(),
// halt_error, a type error). gojq's errors carry jq's own exit codes (5 for
// error()), which in testctl's contract would read "not found": the
// expression is the user's input, so it is a usage error, exit 2.
type JQError struct {
	Err  error
	Hint string // on the line below: the expression that would work
}

func (e *JQError) Error() string {
	if e.Hint != "" {
		return "--jq: " + e.Err.Error() + "\n  " + e.Hint
	}
	return "--jq: " + e.Err.Error()
}
func (e *JQError) Unwrap() error { return e.Err }

// ExitCode is the contract's usage code, whatever gojq says.
func (e *JQError) ExitCode() int { return exitUsage }

// simplePath is an expression that only walks down fields (".status",
// ".runTestCases[].name"): .[] goes in front of it as it stands.
var simplePath = regexp.MustCompile(`^\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*|\[\])*$`)

// arrayHint is what to write instead of an expression that took the
// document for an object when it is an array (several runs give one): the
// same expression on each element. "" for any other error.
func arrayHint(expr string, doc any, err error) string {
	items, ok := doc.([]any)
	if !ok || !strings.HasPrefix(err.Error(), "expected an object but got: array") {
		return ""
	}
	expr = strings.TrimSpace(expr)
	each := ".[] | " + expr
	if simplePath.MatchString(expr) {
		each = ".[]" + expr
	}
	return fmt.Sprintf("the document is an array of %d: for each of them, --jq %s", len(items), shellwords.Quote(each))
}
