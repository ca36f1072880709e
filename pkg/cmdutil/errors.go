// Package cmdutil holds what every command shares: the factory of lazily
// built dependencies, global flags, and errors that carry exit codes.
package cmdutil

import (
	"context"
	"errors"
	"fmt"
)

// Exit codes of the contract.
const (
	ExitOK       = 0
	ExitFailed   = 1
	ExitUsage    = 2
	ExitRunError = 3
	ExitAuth     = 4
	ExitNotFound = 5
	ExitService  = 6
	ExitTimeout  = 7
	// ExitLocal is a local failure (a file that could not be read or
	// written, a sandbox that could not listen): never 1, which a CI gate
	// reads as "tests failed".
	ExitLocal       = 8
	ExitInterrupted = 130
	// ExitTerminated is SIGTERM, which CI runners send when a job is
	// cancelled; it behaves as ExitInterrupted.
	ExitTerminated = 143
)

// FlagError is bad usage: a bad flag value, a missing argument, a conflict.
// Nothing was sent. Usage help is pointed to.
type FlagError struct{ Err error }

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

// ExitCode is always the contract's usage code.
func (e *FlagError) ExitCode() int { return ExitUsage }

// FlagErrorf builds a FlagError.
func FlagErrorf(format string, args ...any) error {
	return &FlagError{Err: fmt.Errorf(format, args...)}
}

// ExitError ends the command with a chosen code. With a nil Err nothing more
// is printed: the command has already said what happened (a failed run).
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// ExitCode returns the chosen code.
func (e *ExitError) ExitCode() int { return e.Code }

// Silent reports whether the error has nothing to print.
func (e *ExitError) Silent() bool { return e.Err == nil }

// UsageError is a configuration problem outside of flags (no base URL, an
// invalid config value): exit 2 without pointing to --help.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ExitCode is the contract's usage code.
func (e *UsageError) ExitCode() int { return ExitUsage }

// UsageErrorf builds a UsageError.
func UsageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// AuthError means no usable key: exit 4 with how to set one.
type AuthError struct{ Err error }

func (e *AuthError) Error() string { return e.Err.Error() }
func (e *AuthError) Unwrap() error { return e.Err }

// ExitCode is the contract's authentication code.
func (e *AuthError) ExitCode() int { return ExitAuth }

// ExitCodeOf maps any error to the contract's exit codes.
func ExitCodeOf(err error) int {
	if err == nil {
		return ExitOK
	}
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) {
		return coded.ExitCode()
	}
	if errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	return ExitFailed
}
