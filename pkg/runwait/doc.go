// Package runwait is the wait on runs, whole, for the verbs that wait or
// report: `run start --wait`, `run rerun --wait`, `run wait` and `run
// report`. It holds the wait's flags (Options), what those verbs share
// around it (announcing the runs a start created, printing them, the dry
// run, the note on runs that lived in --sandbox, checking run ids), the
// state of each run between polls, the reruns of --retry-failed, the
// wait's reporters (the live view, the line mode, the heartbeat, the
// evidence read as test cases end: pkg/report's one Reporter interface, on
// the one Multiplexer the reports of the end join), and Finish: records →
// the verdict → every report. It decides no outcome itself: pkg/verdict
// does, and every view and report renders what it decided.
package runwait
