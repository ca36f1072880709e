package cmdutil

import (
	"context"
	"errors"
	"syscall"
	"testing"
)

// A real SIGTERM to this process ends the context with ErrTerminated, and
// the command exits 143; SIGINT stays 130.
func TestSignalContextTellsSIGTERMFromSIGINT(t *testing.T) {
	for sig, want := range map[syscall.Signal]int{syscall.SIGTERM: ExitTerminated, syscall.SIGINT: ExitInterrupted} {
		ctx, stop := SignalContext(context.Background())
		if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		if got := InterruptCode(ctx); got != want {
			t.Errorf("%v: exit %d, want %d (cause %v)", sig, got, want, context.Cause(ctx))
		}
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Errorf("%v: Err %v", sig, ctx.Err())
		}
		stop()
	}
}
