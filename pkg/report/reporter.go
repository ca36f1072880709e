package report

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// Reporter is one consumer of a wait's events, as Playwright's reporters
// are: the live view or the line mode on stderr, the heartbeat, the
// evidence read as test cases end, and, at the end, the JUnit and HTML
// files, GitHub's files and annotations, the summary, the pull request
// comment and the data on stdout. A reporter decides nothing: End's outcome
// carries the verdict every one renders, and one that shows a run's
// outcome before the end asks Progress.Verdict, decided the same way.
// `run report`, which waits for nothing, delivers only the end.
type Reporter interface {
	// Name says what the reporter renders, for the error of one that
	// failed: "the JUnit report".
	Name() string
	// RunChanged: a run's status changed to one that is not final.
	RunChanged(p *Progress, elapsed time.Duration)
	// CaseEnded: a test case reached a final status, or, having reached
	// one, the service now reports it differently (a retry inside the run).
	CaseEnded(p *Progress, tc api.RunTestCase)
	// RunEnded: the run reached its final status; its verdict is known.
	RunEnded(p *Progress, elapsed time.Duration)
	// Notice: a message for the user (a rerun started, a run given up).
	Notice(msg string)
	// Retrying: a streak of transient failures of a run's polls began.
	Retrying(p *Progress, elapsed time.Duration, err error)
	// Tick: time passed (between polls, at the wait's tick).
	Tick(runs []*Progress, elapsed time.Duration)
	// End: the wait is over, whatever ended it, and this is its outcome;
	// nothing follows. An error without an exit code of its own is a
	// report that could not be written (8).
	End(out Outcome) error
}

// Progress is what a reporter is told of one run while a wait goes on: a
// snapshot taken for the event.
type Progress struct {
	ShortID string
	Plan    verdict.Plan
	// Detail is the latest answer, nil until the first one; NotFound: the
	// last poll was a 404 (within the not-visible grace).
	Detail   *api.RunDetail
	NotFound bool
	// Done: the wait on this run is over, with Err when it has no verdict.
	Done bool
	Err  error
	// Failing counts the run's polls that failed in a row; RetryingSince
	// (wait time) and RetryWhy describe the streak.
	Failing       int
	RetryingSince time.Duration
	RetryWhy      string
	// AlreadyFinished: the run had ended before the wait began;
	// FinishedAfter: the wait's elapsed time at its final status.
	AlreadyFinished bool
	FinishedAfter   time.Duration
	// Decide is the run's verdict as it stands, decided where every
	// report's is.
	Decide func() verdict.Run
}

// Verdict is the run's verdict as it stands: the views show the same mark
// the summary will.
func (p *Progress) Verdict() verdict.Run { return p.Decide() }

// Outcome is what the end delivers: the verdict, and the failure story
// gathered for it.
type Outcome struct {
	Verdict verdict.Verdict
	// Code is the process's exit code, settled before any report states
	// it: the verdict's, raised by a sink that failed, a --jq that failed
	// or a signal. The reports that state a code state this one; JUnit and
	// HTML state the runs' verdict.
	Code int
	// Evidence of the test cases that did not pass, within --evidence N;
	// EvidenceLeft counts those beyond N, whose evidence was not gathered.
	Evidence     Evidence
	EvidenceLeft int
	// History is the recent runs of each plan, by plan short id, for the
	// HTML report.
	History map[string][]api.RunSummary
}

// IgnoreEvents is embedded by a reporter that needs only some of the
// events (the reports of the end, none): it ignores every event of the
// wait in progress that the reporter does not define itself.
type IgnoreEvents struct{}

func (IgnoreEvents) RunChanged(*Progress, time.Duration)      {}
func (IgnoreEvents) CaseEnded(*Progress, api.RunTestCase)     {}
func (IgnoreEvents) RunEnded(*Progress, time.Duration)        {}
func (IgnoreEvents) Notice(string)                            {}
func (IgnoreEvents) Retrying(*Progress, time.Duration, error) {}
func (IgnoreEvents) Tick([]*Progress, time.Duration)          {}

// Multiplexer is the one Reporter a wait talks to: it hands every event to
// each of its reporters in order and isolates them from one another, as
// Playwright's does. A reporter that fails or panics is named on stderr
// and raises the code (to 8, or its error's own code), never lowers it,
// and never stops the others; one that panicked on an event gets no more
// events, but still its end. The end is delivered exactly once.
type Multiplexer struct {
	Reporters []Reporter
	ErrOut    io.Writer
	// Signal is the code of a signal the process got (130, 143), 0 for
	// none; nil: none counts.
	Signal func() int
	// Annotate, when set (GitHub Actions), also shows a report's failure
	// as an ::error annotation.
	Annotate func(msg string)

	// mu keeps the events in one order for every reporter.
	mu sync.Mutex
	// broken are the reporters that panicked on an event; ended: the end
	// was delivered, and nothing follows it.
	broken map[int]bool
	ended  bool
	once   sync.Once
	code   int
	// returned is the error a reporter ended with that carries the
	// command's code itself (a --jq that failed): handleError prints it.
	returned error
}

var _ Reporter = (*Multiplexer)(nil)

// Name is the multiplexer's, for a Reporter made of several.
func (m *Multiplexer) Name() string { return "the reports" }

// Add appends reporters: the wait's views come first, the reports of the
// end, known once the wait is over, after them.
func (m *Multiplexer) Add(rs ...Reporter) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.Reporters = append(m.Reporters, rs...)
}

func (m *Multiplexer) RunChanged(p *Progress, elapsed time.Duration) {
	m.each(func(r Reporter) { r.RunChanged(p, elapsed) })
}

func (m *Multiplexer) CaseEnded(p *Progress, tc api.RunTestCase) {
	m.each(func(r Reporter) { r.CaseEnded(p, tc) })
}

func (m *Multiplexer) RunEnded(p *Progress, elapsed time.Duration) {
	m.each(func(r Reporter) { r.RunEnded(p, elapsed) })
}

func (m *Multiplexer) Notice(msg string) { m.each(func(r Reporter) { r.Notice(msg) }) }

func (m *Multiplexer) Retrying(p *Progress, elapsed time.Duration, err error) {
	m.each(func(r Reporter) { r.Retrying(p, elapsed, err) })
}

func (m *Multiplexer) Tick(runs []*Progress, elapsed time.Duration) {
	m.each(func(r Reporter) { r.Tick(runs, elapsed) })
}

// each delivers an event to every reporter that has not broken, until the
// end.
func (m *Multiplexer) each(event func(Reporter)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ended {
		return
	}
	for i, r := range m.Reporters {
		if m.broken[i] {
			continue
		}
		if err := safely(r, func() error { event(r); return nil }); err != nil {
			if m.broken == nil {
				m.broken = map[int]bool{}
			}
			m.broken[i] = true
			m.print(err)
		}
	}
}

// End settles the command's code, then delivers the outcome to every
// reporter with it, and returns the command's error: nil, or a silent one
// carrying the code (every error is printed here). First every reporter that
// is a Prober is probed (its file can be written, --jq runs on the
// document): a failure there decides the code before any report states
// it. A signal counts until the first reporter that states the code
// (CodeStater); after that the code changes only when a report fails, and
// the reports after it state the raised code. A second call delivers
// nothing and returns the first call's error.
func (m *Multiplexer) End(out Outcome) error {
	m.once.Do(func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.ended = true
		code := out.Verdict.Code
		if len(m.broken) > 0 {
			code = max(code, exitcode.Local)
		}
		for _, r := range m.Reporters {
			if p, ok := r.(Prober); ok {
				if err := safely(r, func() error { return p.Probe(out) }); err != nil {
					code = max(code, codeOf(err))
					m.fail(err)
				}
			}
		}
		settled := false
		settle := func() {
			if !settled && m.Signal != nil {
				code = max(code, m.Signal())
			}
			settled = true
		}
		for _, r := range m.Reporters {
			if s, ok := r.(CodeStater); ok && s.StatesCode() {
				settle()
			}
			out.Code = code
			if err := safely(r, func() error { return r.End(out) }); err != nil {
				code = max(code, codeOf(err))
				m.fail(err)
			}
		}
		settle()
		m.code = code
	})
	if m.code == 0 {
		return nil
	}
	return &exitcode.Error{Code: m.code}
}

// Prober is a reporter whose sink is checked before any report states a
// code: its error decides the code (8, or the error's own code).
type Prober interface {
	Probe(out Outcome) error
}

// CodeStater is a reporter that states the process's exit code (the
// summary, the GitHub files, the outputs, the comment), where JUnit and
// HTML state the runs' verdict.
type CodeStater interface {
	StatesCode() bool
}

// codeOf is the code a reporter's error gives: its own (a --jq that
// failed: 2), else 8, since a CI gate must not pass without its report.
func codeOf(err error) int {
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) {
		return coded.ExitCode()
	}
	return exitcode.Local
}

// fail says that a report failed, on stderr and, under GitHub Actions,
// in an ::error annotation naming it.
func (m *Multiplexer) fail(err error) {
	m.print(err)
	if m.Annotate != nil {
		m.Annotate(err.Error())
	}
}

func (m *Multiplexer) print(err error) {
	fmt.Fprintf(m.ErrOut, "error: %s\n", termtext.Sanitize(err.Error()))
}

// safely runs one of r's methods with a panic turned into its error.
func safely(r Reporter, call func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s failed: internal error: %v", r.Name(), p)
		}
	}()
	return call()
}

// reporter is an end-only Reporter made of a name and functions: probe,
// when set, checks its sink; states: it states the process's code.
type reporter struct {
	IgnoreEvents
	name   string
	end    func(Outcome) error
	probe  func(Outcome) error
	states bool
}

func (r reporter) Name() string          { return r.name }
func (r reporter) End(out Outcome) error { return r.end(out) }
func (r reporter) StatesCode() bool      { return r.states }
func (r reporter) Probe(out Outcome) error {
	if r.probe == nil {
		return nil
	}
	return r.probe(out)
}
