// Package cmdutil holds what every command shares: the factory of lazily
// built dependencies, global flags, how a command runs (Dispatch, RunE,
// Group), argument checks and signal handling. The exit codes and the
// errors that carry them are pkg/exitcode's; completions are
// pkg/completion's; the checks of ids and flag values pkg/idcheck's and
// pkg/flagcheck's.
package cmdutil
