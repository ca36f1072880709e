// Package wait is testctl's one way to wait: it polls the service until what
// a command waits for is done — runs reaching a verdict (`run wait`, `run
// start --wait`) or a tunnel reaching a health (`tunnel status --wait-until`).
//
// Read it top-down:
//
//  1. The loop, which knows nothing of runs. target.go: a Target is polled
//     by its PollFunc, which returns an Outcome: done, or Failed(err) with
//     the Retry-After an api.HTTPError carries. loop.go: Loop polls every
//     Target when due from one goroutine, on the injected clock, until all
//     are done, the deadline passes or the context ends. failure.go: what a
//     failed poll means (backoff with jitter, Retry-After as a floor, the
//     not-yet-visible grace, the cap on failures in a row, a rejected key
//     ending the wait).
//  2. The wait on runs. options.go: its flags. runs.go: Runs, from targets to
//     exit code. run_state.go: what it knows of each run between polls.
//     run_retry.go: --retry-failed, which reruns the failed test cases of a
//     FAILED run and goes on waiting with the rerun (Options.Rerun is the
//     command's reconciled rerun).
//  3. The views, on stderr. view.go: the interface and one line per change
//     (off a terminal), with view_heartbeat.go's progress line after a
//     silence of --heartbeat; view_live.go: the spinner line on a terminal,
//     or for several runs view_block.go's block of a line per run, redrawn
//     in place (iostreams.Block);
//     view_format.go: counts, statuses and elapsed times in words.
//  4. The reports. record.go: Record, a run once the wait has ended;
//     record_attempts.go: its attempts under --retry-failed, the latest run
//     of each test case (matched by name) and the flaky ones.
//     finish.go calls each report; every report_*.go is an independent
//     writer over []Record taking only what it needs (an io.Writer, a path,
//     an environment lookup): the summary, the data on stdout and its case
//     table (shared with `run get`), JUnit, GitHub annotations, step summary
//     and outputs, the SKIPPED warnings (report_skipped.go) and the resume hint
//     (report_resume.go).
//
// To wait for something new, give a Loop a Target whose PollFunc calls the
// api.Client (with its retries off: the Loop paces its own), returns
// Failed(err) when that fails and says when it is done; the pacing and
// failure rules come free.
package wait
