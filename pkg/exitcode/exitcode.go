// Package exitcode holds the contract's exit codes, the errors that carry
// them, and their table (what each means and why, for the README, docs/ and
// `testctl help exit-codes`). It is a leaf: the standard library only, so
// the outcome model (pkg/verdict) and the API client can name a code
// without pulling in the command framework.
package exitcode

import (
	"context"
	"errors"
	"fmt"
)

// The contract's exit codes (docs/exit-codes.md).
const (
	OK       = 0
	Failed   = 1
	Usage    = 2
	RunError = 3
	Auth     = 4
	NotFound = 5
	Service  = 6
	Timeout  = 7
	// Local is a local failure (a file that could not be read or written,
	// a sandbox that could not listen): never 1, which a CI gate reads as
	// "tests failed".
	Local       = 8
	Interrupted = 130
	// Terminated is SIGTERM, which CI runners send when a job is cancelled;
	// it behaves as Interrupted.
	Terminated = 143
)

// FlagError is bad usage: a bad flag value, a missing argument, a conflict.
// Nothing was sent. Usage help is pointed to.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// ExitCode is always the contract's usage code.
func (e *FlagError) ExitCode() int { return Usage }

// FlagErrorf builds a FlagError.
func FlagErrorf(format string, args ...any) error {
	return &FlagError{Err: fmt.Errorf(format, args...)}
}

// Error ends the command with a chosen code. With a nil Err nothing more is
// printed: the command has already said what happened (a failed run).
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}
func (e *Error) Unwrap() error { return e.Err }

// ExitCode returns the chosen code.
func (e *Error) ExitCode() int { return e.Code }

// Silent reports whether the error has nothing to print.
func (e *Error) Silent() bool { return e.Err == nil }

// UsageError is a configuration problem outside of flags (no base URL, an
// invalid config value): exit 2 without pointing to --help.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ExitCode is the contract's usage code.
func (e *UsageError) ExitCode() int { return Usage }

// UsageErrorf builds a UsageError.
func UsageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// AuthError means no usable key: exit 4 with how to set one.
type AuthError struct{ Err error }

func (e *AuthError) Error() string { return e.Err.Error() }
func (e *AuthError) Unwrap() error { return e.Err }

// ExitCode is the contract's authentication code.
func (e *AuthError) ExitCode() int { return Auth }

// Of maps any error to the contract's exit codes: its own ExitCode when it
// states one, 130 for a cancelled context, else 1.
func Of(err error) int {
	if err == nil {
		return OK
	}
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) {
		return coded.ExitCode()
	}
	if errors.Is(err, context.Canceled) {
		return Interrupted
	}
	return Failed
}
