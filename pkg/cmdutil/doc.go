// Package cmdutil holds what every command shares: the factory of lazily
// built dependencies, global flags, how a command runs (Dispatch, RunE,
// Group), argument checks, signal handling, and the global flags that choose
// the service, given back as words for the hints a command prints. The exit
// codes, their table and the errors that carry them are pkg/exitcode's;
// quoting a word for a shell is pkg/shellwords'; completions are
// pkg/completion's; the checks of ids and flag values pkg/idcheck's and
// pkg/flagcheck's.
package cmdutil
