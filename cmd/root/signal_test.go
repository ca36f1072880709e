package root_test

import (
	"context"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// Any command a SIGTERM ends exits 143 and says "terminated"; Ctrl-C stays
// 130 "interrupted".
func TestSignalsEndCommandsWithTheirOwnCodes(t *testing.T) {
	e := cmdtest.New(t)
	for cause, want := range map[error]int{cmdutil.ErrTerminated: 143, context.Canceled: 130} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(cause)
		r := e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "list").Expect(t, want)
		word := map[int]string{143: "terminated", 130: "interrupted"}[want]
		if strings.TrimSpace(r.Stderr) != word {
			t.Errorf("exit %d: stderr %q, want %q", want, r.Stderr, word)
		}
	}
}
