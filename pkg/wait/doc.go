// Package wait is testctl's one way to wait: it polls the service until what
// a command waits for is done — runs reaching a verdict (`run wait`, `run
// start --wait`) or a tunnel reaching a health (`tunnel status --wait-until`).
//
// Read it top-down:
//
//   - loop.go: the Loop. One goroutine polls every Target when it is due, on
//     the injected clock, until all are done, the deadline passes or the
//     context ends. failure.go holds its rules for a failed poll (backoff
//     with jitter, Retry-After, the not-yet-visible grace, the failure cap);
//     fetch.go the GET that keeps a failed answer's Retry-After.
//   - runs.go: Runs, the wait on runs from targets to exit code, with its
//     flags in options.go, and run_state.go, what it knows of each run
//     between polls.
//   - view.go, view_live.go: progress on stderr, a live line on a terminal
//     and one line per change elsewhere.
//   - record.go: Record, a run once the wait has ended, and report_*.go, the
//     reports. Each report is an independent writer over []Record that takes
//     only what it needs (an io.Writer, a path, an environment lookup), so
//     each can be tested alone and a new one added without touching the rest.
package wait
