package cmdutil

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// ErrTerminated is the cause of a command's context when the process got
// SIGTERM, which CI runners send when a job is cancelled (GitHub Actions
// after a SIGINT, GitLab and others at once). It ends the command as Ctrl-C
// does, with its own exit code, so a CI log tells the two apart.
var ErrTerminated = errors.New("terminated (SIGTERM)")

// SignalContext is ctx, cancelled on the first SIGINT (cause
// context.Canceled) or SIGTERM (cause ErrTerminated). stop releases the
// signals.
func SignalContext(ctx context.Context) (_ context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			if sig == syscall.SIGTERM {
				cancel(ErrTerminated)
			} else {
				cancel(context.Canceled)
			}
		case <-done:
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
		return ExitTerminated
	}
	return ExitInterrupted
}
