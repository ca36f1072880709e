// Package reconcile makes a write that creates something (a run start, a
// rerun, a test case creation) happen once, even when its answer is lost.
//
// A lost answer (a 5xx, a timeout, a dropped connection) does not say
// whether the service acted. Sending the request again could create a
// second run; giving up would fail a CI job whose run may be going. So Do
// first notes what already exists, sends the request, and when the answer
// may have been lost, looks for what the request created: something that
// matches it and was not there before. A match is one only when everything
// the list shows of it agrees with the request. One match is adopted, unless
// the request asked for something the list cannot show, or the list left out
// something it asked: then it is named with the command that takes it up,
// and not adopted (exit 6). One listed without an id cannot be named: the
// command ends (exit 6) saying where to look. Several end the command (exit
// 6) naming them; none within the service's visibility delay means the
// request was not carried out, and it is sent once more.
package reconcile

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/termtext"
)

// Found is one thing that matches a write, as the service lists it.
type Found[T any] struct {
	ID        string    // named in messages
	CreatedAt time.Time // zero when the service did not say
	Value     T         // what adopting it returns
	// Unsure, when set, is what the request asked that the list does not
	// show of this match ("its environment"): it may be another's, so it
	// is named, never adopted.
	Unsure string
}

// Write is one request that creates something, and the query that finds
// what it may have created.
type Write[T any] struct {
	Noun    string // "run", "test case"
	Request string // "POST /v1/run", for messages
	// Send makes the request once.
	Send func(ctx context.Context) (T, error)
	// Find lists what matches the request, whatever its age: before the
	// request to note what exists, and after a lost answer to find what is
	// new.
	Find func(ctx context.Context) ([]Found[T], error)
	// Where is the command line (after "testctl") that lists what the
	// request may have created ("run", "list", "--plan", "pln_x"): where the
	// user looks for a match listed without an id, which cannot be named.
	// Called after Find; nil when there is none.
	Where func() []string
	// TakeUp is the command line that takes up the match id, given the
	// global flags that chose the service (`testctl run wait ID`): for a
	// match named, not adopted. Nil when there is none: Where names the
	// command that lists it.
	TakeUp func(service []string, id string) nextstep.Step
}

// Reconciler holds what every write shares.
type Reconciler struct {
	Clock clock.Clock
	// Delay is how long a created resource may take to be listed: nothing
	// new by then means the request was not carried out.
	Delay time.Duration
	// Notices receives what the user must know (stderr); Debug each step
	// (--debug), or nil.
	Notices, Debug io.Writer
	// WaitArgs are the global flags that chose the service, for the
	// command lines that take up or list what is named, not adopted
	// (`testctl run wait ID`).
	WaitArgs []string
	// steps words those for the command's reader (the renderer its
	// context carries, set by Do): a shell's lines, or tool calls.
	steps nextstep.Renderer
}

// looksPerDelay is how many times the list is read within the delay, after
// the first look: often enough to adopt a run soon after it shows.
const looksPerDelay = 6

// clockSkew is how far the service's clock may be behind ours: a match
// created earlier than that before the request cannot be its result.
const clockSkew = 5 * time.Minute

// Do sends w once and, when its answer may have been lost, reconciles (see
// the package comment). The error carries the contract's exit code.
func Do[T any](ctx context.Context, r Reconciler, w Write[T]) (T, error) {
	var zero T
	r.steps = nextstep.From(ctx)
	before, listErr := w.Find(ctx)
	if ctx.Err() != nil {
		return zero, ctx.Err()
	}
	b := baselineOf(before)
	if listErr != nil {
		// Refusing to send would fail the command for a list it may only
		// need if the answer is lost; then it has to give up instead.
		r.debugf("the %ss that exist before %s cannot be read: %v\n", w.Noun, w.Request, listErr)
	} else {
		r.debugf("%d %s(s) like this one exist before %s\n", len(before), w.Noun, w.Request)
	}
	for sent := 1; ; sent++ {
		sentAt := r.Clock.Now()
		// A first signal does not abort a request in flight: its answer
		// may name what it created, which the command must then report.
		sendCtx, release := cmdutil.Grace(ctx, AnswerGrace)
		v, err := w.Send(sendCtx)
		release()
		switch {
		case err == nil:
			return v, nil
		case ctx.Err() != nil:
			return signalled(ctx, r, w, b, listErr, sentAt)
		case !api.AnswerMayBeLost(err):
			return zero, err
		}
		if listErr != nil {
			return zero, maybeCreated(r, w, &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf(
				"%w\nWhether it created a %s cannot be told: the %ss that existed before it could not be read (%v). Check them before sending it again",
				err, w.Noun, w.Noun, firstLine(listErr.Error()))})
		}
		fmt.Fprintf(r.Notices, "warning: the answer to %s may have been lost (%s): looking for the %s it may have created\n",
			w.Request, termtext.SanitizeLine(firstLine(err.Error())), w.Noun)
		found, lookErr := look(ctx, r, w, b, sentAt)
		switch {
		case lookErr != nil:
			return zero, maybeCreated(r, w, lookErr)
		case idless(found):
			return zero, maybeCreated(r, w, unnamed(r, w, found))
		case unsure(found):
			return zero, maybeCreated(r, w, named(r, w, found, sent))
		case len(found) == 1:
			fmt.Fprintf(r.Notices, "the answer was lost, but %s %s was created: using it\n", w.Noun, termtext.SanitizeLine(found[0].ID))
			return found[0].Value, nil
		case len(found) > 1:
			return zero, maybeCreated(r, w, several(w, found))
		case sent == 2:
			return zero, &exitcode.Error{Code: exitcode.Service, Err: fmt.Errorf(
				"%s failed twice and no %s appeared within %s: nothing seems to have been created. Last error: %w",
				w.Request, w.Noun, r.Delay, err)}
		}
		fmt.Fprintf(r.Notices, "no %s appeared within %s: sending %s once more\n", w.Noun, r.Delay, w.Request)
	}
}

// AnswerGrace is how long the answer to a request in flight is awaited
// after a first signal; ListGrace bounds the reads of the list that look
// for what it created when that answer never came. GitHub Actions sends
// SIGTERM 7.5 s after its SIGINT: both, and the reports, fit before it.
const (
	AnswerGrace = 3 * time.Second
	ListGrace   = 2 * time.Second
)

// MaybeCreatedError is a request whose answer never came (lost, or a
// signal came while it was in flight) and which may have created what it
// asks for: nothing that was found could be adopted. It is never "not
// started": Where is the command that lists what it may have created.
type MaybeCreatedError struct {
	Err   error
	Where string
}

func (e *MaybeCreatedError) Error() string { return e.Err.Error() }
func (e *MaybeCreatedError) Unwrap() error { return e.Err }

// maybeCreated marks err as a request that may have created a w.Noun.
func maybeCreated[T any](r Reconciler, w Write[T], err error) *MaybeCreatedError {
	e := &MaybeCreatedError{Err: err}
	if w.Where != nil {
		if args := w.Where(); len(args) > 0 {
			e.Where = r.command(args)
		}
	}
	return e
}

// signalled is what a request a signal caught in flight created, when its
// answer never came: looked for in the list at most twice within ListGrace,
// never sent again. One new match is adopted (the command goes on to report
// it, stopped); otherwise the request may have created one, and the error
// says where to look.
func signalled[T any](ctx context.Context, r Reconciler, w Write[T], b baseline, listErr error, sentAt time.Time) (T, error) {
	var zero T
	maybe := maybeCreated(r, w, nil)
	msg := fmt.Sprintf("%s was in flight when the command was stopped, and its answer never came: a %s may have been created", w.Request, w.Noun)
	if maybe.Where != "" {
		msg += "\nLook for it with:\n  " + maybe.Where
	}
	maybe.Err = &signalError{msg: msg, err: ctx.Err()}
	if listErr != nil {
		return zero, maybe // nothing to tell a new one from
	}
	lookCtx, release := cmdutil.Grace(ctx, ListGrace)
	defer release()
	for look := range 2 {
		found, err := w.Find(lookCtx)
		if err == nil {
			fresh := newMatches(r, w.Noun, b, sentAt, found)
			if len(fresh) == 1 && fresh[0].ID != "" && fresh[0].Unsure == "" {
				fmt.Fprintf(r.Notices, "the command was stopped while %s was in flight, but %s %s was created\n",
					w.Request, w.Noun, termtext.SanitizeLine(fresh[0].ID))
				return fresh[0].Value, nil
			}
			if len(fresh) > 0 {
				return zero, maybe // which one cannot be told: named by where
			}
		}
		if look == 0 && r.Clock.Sleep(lookCtx, ListGrace/2) != nil {
			break
		}
	}
	return zero, maybe
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func (r Reconciler) debugf(format string, args ...any) {
	if r.Debug != nil {
		fmt.Fprintf(r.Debug, "* reconcile: "+format, args...)
	}
}

// signalError is what a signal left of a request in flight: msg says it,
// err is the signal's (a cancelled context).
type signalError struct {
	msg string
	err error
}

func (e *signalError) Error() string { return e.msg }
func (e *signalError) Unwrap() error { return e.err }
