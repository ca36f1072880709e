package e2e_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/sandbox"
)

// A JSON document read from a stdin that never closes (a pipe from a
// process that hangs) gives way to the first SIGTERM or Ctrl-C: the
// command ends with 143 or 130 and sends nothing.
func TestStdinThatNeverClosesGivesWayToASignal(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		cause error
		code  int
	}{
		{"api --input - terminated", []string{"api", "/v1/run", "--method", "POST", "--input", "-"}, cmdutil.ErrTerminated, 143},
		{"run start --parameters - interrupted", []string{"run", "start", "--plan", sandbox.PlanPassing, "--parameters", "-"}, context.Canceled, 130},
		{"run start --applications - terminated", []string{"run", "start", "--plan", sandbox.PlanPassing, "--applications", "-"}, cmdutil.ErrTerminated, 143},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := cmdtest.New(t)
			stdin, writer := io.Pipe() // nobody writes, nobody closes
			t.Cleanup(func() { writer.Close() })
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(20*time.Millisecond, func() { cancel(tc.cause) })
			done := make(chan cmdtest.Result, 1)
			go func() { done <- e.RunWith(cmdtest.RunOptions{In: stdin, Ctx: ctx}, tc.args...) }()
			select {
			case r := <-done:
				r.Expect(t, tc.code)
			case <-time.After(10 * time.Second):
				t.Fatal("the signal did not end the read of stdin")
			}
			if n := e.Requests("POST /v1/run"); n != 0 {
				t.Errorf("%d runs started", n)
			}
		})
	}
}
