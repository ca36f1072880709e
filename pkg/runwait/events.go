package runwait

import (
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// waitEvents is what the wait loop tells its consumers as it learns it: the
// live view or the line mode on stderr, the heartbeat and the evidence
// gathered while the runs go on each consume the same events. A consumer
// decides nothing: one that shows an outcome asks the verdict for it
// (runState.verdict), as every report does.
type waitEvents interface {
	// runChanged: a run's status changed to one that is not final.
	runChanged(s *runState, elapsed time.Duration)
	// caseEnded: a test case reached a final status, or, having reached
	// one, the service now reports it differently (a retry inside the run).
	caseEnded(s *runState, tc api.RunTestCase)
	// runEnded: the run reached its final status; its verdict is known.
	runEnded(s *runState, elapsed time.Duration)
	// notice: a message for the user (a rerun started, a run given up).
	notice(msg string)
	// retrying: a streak of transient failures of a run's polls began.
	retrying(s *runState, elapsed time.Duration, err error)
	// tick: time passed (between polls, at the loop's TickEvery).
	tick(states []*runState, elapsed time.Duration)
	// stop: the wait is over; nothing follows.
	stop()
}

// consumers hands every event to each of its consumers, in order.
type consumers []waitEvents

func (cs consumers) runChanged(s *runState, elapsed time.Duration) {
	for _, c := range cs {
		c.runChanged(s, elapsed)
	}
}

func (cs consumers) caseEnded(s *runState, tc api.RunTestCase) {
	for _, c := range cs {
		c.caseEnded(s, tc)
	}
}

func (cs consumers) runEnded(s *runState, elapsed time.Duration) {
	for _, c := range cs {
		c.runEnded(s, elapsed)
	}
}

func (cs consumers) notice(msg string) {
	for _, c := range cs {
		c.notice(msg)
	}
}

func (cs consumers) retrying(s *runState, elapsed time.Duration, err error) {
	for _, c := range cs {
		c.retrying(s, elapsed, err)
	}
}

func (cs consumers) tick(states []*runState, elapsed time.Duration) {
	for _, c := range cs {
		c.tick(states, elapsed)
	}
}

func (cs consumers) stop() {
	for _, c := range cs {
		c.stop()
	}
}

// ignoreEvents is embedded by a consumer that needs only some events.
type ignoreEvents struct{}

func (ignoreEvents) runChanged(*runState, time.Duration)      {}
func (ignoreEvents) caseEnded(*runState, api.RunTestCase)     {}
func (ignoreEvents) runEnded(*runState, time.Duration)        {}
func (ignoreEvents) notice(string)                            {}
func (ignoreEvents) retrying(*runState, time.Duration, error) {}
func (ignoreEvents) tick([]*runState, time.Duration)          {}
func (ignoreEvents) stop()                                    {}
