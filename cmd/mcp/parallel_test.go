package mcp_test

import (
	"context"
	"sync"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// Tool calls run at once share nothing mutable (each has its own streams,
// flags and step outputs): under -race, parallel waits and reads of
// different runs each get their own verdict.
func TestParallelCallsShareNothing(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, true)
	ids := map[string]int{e.StartRun(t, "pln-passing_sandbox"): 0, e.StartRun(t, "pln-failing_sandbox"): 1,
		e.StartRun(t, "pln-erroring_sandbox"): 3}
	// The waits at once, then the reports of the ended runs at once.
	for _, tool := range []string{"wait_run", "run_report"} {
		var wg sync.WaitGroup
		for id, want := range ids {
			wg.Go(func() {
				r := a.call(t, context.Background(), tool, map[string]any{"run_ids": []string{id}})
				if r.data.ExitCode != want {
					t.Errorf("%s %s: exit %d, want %d\n%s", tool, id, r.data.ExitCode, want, r.text)
				}
			})
		}
		wg.Wait()
	}
}
