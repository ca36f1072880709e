package output

// exitUsage is exitcode.Usage, which this package cannot import.
const exitUsage = 2

// JQError is a --jq expression that failed on the document (error(),
// halt_error, a type error). gojq's errors carry jq's own exit codes (5 for
// error()), which in testctl's contract would read "not found": the
// expression is the user's input, so it is a usage error, exit 2.
type JQError struct{ Err error }

func (e *JQError) Error() string { return "--jq: " + e.Err.Error() }
func (e *JQError) Unwrap() error { return e.Err }

// ExitCode is the contract's usage code, whatever gojq says.
func (e *JQError) ExitCode() int { return exitUsage }
