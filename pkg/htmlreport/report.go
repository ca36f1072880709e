// Package htmlreport writes the HTML report of a command's runs (--html):
// one self-contained file that opens offline, from a CI artefact, under a
// strict Content-Security-Policy, and in which text from the service is
// always text. It renders a verdict decided elsewhere; it decides nothing.
//
// The page is built in the browser by an inline script from the report's
// data, embedded once as JSON; the Go side orders it (failures first),
// bounds it (evidence capped per test case, texts clipped) and escapes it.
package htmlreport

import (
	"time"

	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/verdict"
)

// Report is everything one report shows: the command's verdict and the runs
// it waited for, in the command's order. Every class in it is pkg/verdict's:
// the page colours, orders and counts by them and never classes a status
// or a result itself.
type Report struct {
	// Verdict is the word the page is headlined with and Class its colour:
	// how the run that gives the command its exit code ended, as the
	// verdict says it (FAILED, TIMED OUT, NOT STARTED, …).
	Verdict  string
	Class    verdict.Class
	ExitCode int
	// Partial: the report was written before every run ended (a timeout,
	// Ctrl-C, SIGTERM); PartialReason says which, for the page's banner,
	// and Resume is the command that resumes the wait ("" when none).
	Partial       bool
	PartialReason string
	Resume        string
	GeneratedAt   time.Time
	Runs          []Run
}

// Run is one run (or one --retry-failed sequence of runs) of a plan.
type Run struct {
	PlanName    string
	PlanShortID string
	// ShortID and URL are the run that gives the verdict: the last attempt.
	ShortID string
	URL     string
	// Status and Result are shown as the service and the verdict say them;
	// Class is how the run ended, as the verdict classes it (verdict.Run.Class).
	Status string
	Result string
	Class  verdict.Class
	// NotStarted: the start of this plan failed, there is no run; the page
	// shows it first, as the cause, and does not count it as a run.
	NotStarted bool
	// MaybeStarted: with NotStarted, the start's request may have reached
	// the service: a run may exist.
	MaybeStarted bool
	// Problem says why the run has no verdict ("the start failed: HTTP 500",
	// "polling stopped: 404"); "" when it has one.
	Problem string
	// Note says what a retried CI job did with the run its earlier
	// attempt started ("passed in run r0a1b2, started by attempt 1: not
	// run again"); "" otherwise.
	Note string
	// Attempts are the runs of a --retry-failed sequence, oldest first, the
	// run above last; empty (or one) when the run was not retried.
	Attempts  []Attempt
	StartedAt time.Time // zero when the service gave none
	// Ended is when the run ended as the terminal says it, "after 00:15"
	// into the wait or "already finished" before it began; "" when no wait
	// saw it end. The page shows no other time for it.
	Ended string
	// History is the plan's recent runs, newest first, as the service
	// lists them; it may include this run.
	History []HistoryEntry
	Cases   []Case
}

// Attempt is one run of a --retry-failed sequence.
type Attempt struct {
	ShortID string
	URL     string
	Result  string        // optional: the attempt's result or status
	Class   verdict.Class // its own, verdict.SummaryClass; "" when unknown
}

// HistoryEntry is one earlier run of the plan.
type HistoryEntry struct {
	ShortID   string
	URL       string
	Status    string
	Result    string
	Class     verdict.Class // verdict.SummaryClass of its status and result
	Duration  time.Duration // 0 when unknown
	CreatedAt time.Time     // when the service lists it
}

// Case is one test case of a run, from the attempt it last ran in.
type Case struct {
	Name        string
	ShortID     string // the run test case's short id
	Class       verdict.Class
	Status      string
	Result      string
	ResultTitle string
	Evaluation  string // the service's evaluation thought
	Attempt     int    // the attempt it last ran in, from 1; 0 is read as 1
	// Evidence is what the service captured while it ran; nil when it was
	// not gathered. It is shown for test cases that did not pass.
	Evidence *evidence.Case
	// FailedAttempt is, for a flaky test case, the attempt that failed,
	// shown side by side with this (passing) one. Its own FailedAttempt is
	// ignored.
	FailedAttempt *Case
	// Failure is the class of a test case that did not pass against the
	// baseline and the quarantine (new, known, quarantined), "" when no
	// baseline or quarantine was given: the page badges it and filters
	// by it. FailureNote says more (a quarantine's date, owner, reason).
	Failure     string
	FailureNote string
}
