package cmdutil

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/testctl/testctl/pkg/exitcode"
)

// ErrTerminated is the cause of a command's context when the process got
// SIGTERM, which CI runners send when a job is cancelled (GitHub Actions
// after a SIGINT, GitLab and others at once). It ends the command as Ctrl-C
// does, with its own exit code, so a CI log tells the two apart.
var ErrTerminated = errors.New("terminated (SIGTERM)")

// SignalContext is ctx, cancelled on the first SIGINT (cause
// context.Canceled) or SIGTERM (cause ErrTerminated), so that the command
// ends cleanly and writes the reports asked for. A second signal, while
// it does (describing runs may take seconds), ends the process at once:
// exit is called with that signal's code (130 or 143). stop releases the
// signals.
func SignalContext(ctx context.Context, exit func(code int)) (_ context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for first := true; ; first = false {
			select {
			case sig := <-ch:
				code, cause := exitcode.Interrupted, context.Canceled
				if sig == syscall.SIGTERM {
					code, cause = exitcode.Terminated, ErrTerminated
				}
				if !first {
					exit(code)
					return
				}
				cancel(cause)
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// InterruptCode is the exit code of a command whose context ended: 143
// after SIGTERM, 130 otherwise.
func InterruptCode(ctx context.Context) int {
	if errors.Is(context.Cause(ctx), ErrTerminated) {
		return exitcode.Terminated
	}
	return exitcode.Interrupted
}
