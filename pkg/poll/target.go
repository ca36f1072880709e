package poll

import (
	"context"
	"errors"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

// Outcome is what one poll of a target learned.
type Outcome struct {
	// Done means the target reached its end: it is polled no more.
	Done bool
	// Err is a failed request; the Loop's failure rules decide what follows.
	Err error
	// RetryAfter is the server's Retry-After that came with Err: the next
	// poll waits at least that long.
	RetryAfter time.Duration
	// Until parks the target: it is not polled again before the channel is
	// closed (a rerun being started, which may take the service's
	// visibility delay), while the other targets go on.
	Until <-chan struct{}
	// Sooner, when shorter than the interval, makes the next poll of a
	// target that answered come that much later instead, one poll more:
	// the caller knows its end is near. The poll after it comes when it
	// would have without it, so a sooner poll that finds nothing costs no
	// time. It never shortens a wait after a failure, whose Retry-After
	// and backoff stand.
	Sooner time.Duration
}

// PollFunc asks about a target once.
type PollFunc func(ctx context.Context) Outcome

// Target is one thing a Loop waits for. Each target keeps its own schedule
// and failure streak, so one target's outage neither slows nor ends the wait
// on another.
type Target struct {
	// Name names the target in messages: "run r1a2b3".
	Name string
	Poll PollFunc
	// VisibleBy is when a 404 stops meaning "created but not visible yet";
	// zero makes a 404 final at once.
	VisibleBy time.Time

	failures int       // transient failures in a row
	nextAt   time.Time // when the next poll is due
	lastPoll time.Time
	done     bool
	err      error // why the target was given up
	answered bool  // the service answered about it at least once
	lastErr  error // the failure of the last poll, nil after an answer
	parked   <-chan struct{}
	resumeAt time.Time // after a sooner poll, when the regular one was due
}

// Done reports whether polling the target stopped: it ended, or was given up.
func (t *Target) Done() bool { return t.done }

// Err is why the target was given up (its exit code is exitcode.Of
// it), or nil.
func (t *Target) Err() error { return t.err }

// Failed is the Outcome of a poll whose request failed, with the
// Retry-After the service sent along (api.HTTPError carries it).
func Failed(err error) Outcome {
	o := Outcome{Err: err}
	if he, ok := errors.AsType[*api.HTTPError](err); ok {
		o.RetryAfter = he.RetryAfter
	}
	return o
}

// MarkAnswered counts an answer the target had before the loop began (a
// start's), so a silent service at the deadline is not taken for one that
// never answered.
func (t *Target) MarkAnswered() { t.answered = true }

// Failures is how many transient failures in a row the target is in.
func (t *Target) Failures() int { return t.failures }

// End stops polling the target as if it had reached its end.
func (t *Target) End() { t.done = true }
