package cmdutil

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

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

// A second signal while the reports are written after the first ends
// Hurry, and the process with the second signal's code if the command has
// not returned by then; a third ends it at once.
func TestSecondSignalHurriesThenExits(t *testing.T) {
	exited := make(chan int, 1)
	ctx, stop := SignalContext(context.Background(), func(code int) { exited <- code })
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	if Hurry(ctx).Err() != nil {
		t.Fatal("the first signal ended Hurry")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-Hurry(ctx).Done()
	select {
	case code := <-exited:
		t.Fatalf("the second signal exited %d at once, leaving no time for the reports", code)
	default:
	}
	if code := <-exited; code != exitcode.Terminated {
		t.Errorf("second signal: exit %d after hardStop, want %d", code, exitcode.Terminated)
	}
}

// A third signal ends the process at once.
func TestThirdSignalExitsAtOnce(t *testing.T) {
	exited := make(chan int, 1)
	ctx, stop := SignalContext(context.Background(), func(code int) { exited <- code })
	defer stop()
	// One at a time: the kernel merges a signal sent while the same one is pending.
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGINT, syscall.SIGTERM} {
		if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		switch i {
		case 0:
			<-ctx.Done()
		case 1:
			<-Hurry(ctx).Done()
		}
	}
	select {
	case code := <-exited:
		if code != exitcode.Terminated {
			t.Errorf("third signal: exit %d, want 143", code)
		}
	case <-time.After(hardStop / 2):
		t.Error("the third signal did not end the process at once")
	}
}
