package cmdutil

import (
	"context"
	"errors"
	"syscall"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
)

// A real SIGTERM to this process ends the context with ErrTerminated, and
// the command exits 143; SIGINT stays 130.
func TestSignalContextTellsSIGTERMFromSIGINT(t *testing.T) {
	for sig, want := range map[syscall.Signal]int{syscall.SIGTERM: exitcode.Terminated, syscall.SIGINT: exitcode.Interrupted} {
		ctx, stop := SignalContext(context.Background(), func(int) { t.Error("one signal ended the process") })
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

// A second signal while the reports are written after the first ends the
// process at once, with the second signal's code.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	exited := make(chan int, 1)
	ctx, stop := SignalContext(context.Background(), func(code int) { exited <- code })
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	select {
	case code := <-exited:
		t.Fatalf("the first signal exited %d", code)
	default:
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := <-exited; code != exitcode.Terminated {
		t.Errorf("second signal: exit %d, want %d", code, exitcode.Terminated)
	}
}
