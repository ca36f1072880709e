package cmdutil

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
)

// ErrTerminated is the cause of a command's context when the process got
// SIGTERM, which CI runners send when a job is cancelled (GitHub Actions
// after a SIGINT, GitLab and others at once). It ends the command as Ctrl-C
// does, with its own exit code, so a CI log tells the two apart.
var ErrTerminated = errors.New("terminated (SIGTERM)")

// SignalContext is ctx, cancelled on the first SIGINT (cause
// context.Canceled) or SIGTERM (cause ErrTerminated), so that the command
// ends cleanly and writes the reports asked for. A second signal, while it
// does, ends Hurry(ctx): what the reports still gather is cut short and
// they are written at once; the process ends with that signal's code
// (exit is called with 130 or 143) if the command has not returned within
// hardStop, or at a third signal. stop releases the signals.
func SignalContext(ctx context.Context, exit func(code int)) (_ context.Context, stop func()) {
	hurry, hurryNow := context.WithCancel(context.Background())
	ctx, cancel := context.WithCancelCause(context.WithValue(ctx, hurryKey{}, hurry))
	ch := make(chan os.Signal, 3)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var deadline <-chan time.Time
		lastCode := 0
		for n := 1; ; n++ {
			select {
			case sig := <-ch:
				code, cause := exitcode.Interrupted, context.Canceled
				if sig == syscall.SIGTERM {
					code, cause = exitcode.Terminated, ErrTerminated
				}
				switch n {
				case 1:
					cancel(cause)
				case 2:
					hurryNow()
					lastCode, deadline = code, time.After(hardStop)
				default:
					exit(code)
					return
				}
			case <-deadline:
				exit(lastCode)
				return
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
		hurryNow()
	}
}

// hardStop is how long a command may go on after a second signal to write
// its reports: GitHub Actions kills a job 2.5 s after its SIGTERM.
const hardStop = 2 * time.Second

type hurryKey struct{}

// Hurry is a context that ends with the second signal (SignalContext): the
// work a command does for its reports after the first one (the evidence,
// a run's name) stops, and the reports are written with what is known.
// Without SignalContext it never ends.
func Hurry(ctx context.Context) context.Context {
	if h, ok := ctx.Value(hurryKey{}).(context.Context); ok {
		return h
	}
	return context.Background()
}

// InterruptCode is the exit code of a command whose context ended: 143
// after SIGTERM, 130 otherwise.
func InterruptCode(ctx context.Context) int {
	if errors.Is(context.Cause(ctx), ErrTerminated) {
		return exitcode.Terminated
	}
	return exitcode.Interrupted
}

// SignalError is err, when a signal ended ctx and so cut the request short,
// carrying that signal's code (143 after SIGTERM, 130 after SIGINT): a
// cancelled request says nothing of which signal it was.
func SignalError(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil || !errors.Is(err, context.Canceled) {
		return err
	}
	return &exitcode.Error{Code: InterruptCode(ctx), Err: err}
}

// Grace is a context with ctx's values that ends d after ctx ends (a
// first signal), or at once with the second signal (Hurry): the answer to
// a request already sent is awaited that long, since it may create what
// the command must then name. release frees it.
func Grace(ctx context.Context, d time.Duration) (_ context.Context, release func()) {
	grace, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var timer *time.Timer
	var mu sync.Mutex
	stopSignal := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		timer = time.AfterFunc(d, cancel)
	})
	stopHurry := context.AfterFunc(Hurry(ctx), cancel)
	return grace, func() {
		stopSignal()
		stopHurry()
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel()
	}
}
