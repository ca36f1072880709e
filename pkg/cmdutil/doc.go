// Package cmdutil holds what every command shares: the factory of lazily
// built dependencies, global flags, argument checks and signal handling.
// The exit codes and the errors that carry them are pkg/exitcode's.
package cmdutil
