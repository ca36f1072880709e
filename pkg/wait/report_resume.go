package wait

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/termtext"
)

// WriteResumeHint says how to resume when the wait ended before the runs
// did (timeout after `timeout`, or interruption): they go on in the service
// either way.
func WriteResumeHint(w io.Writer, end End, timeout time.Duration, recs []Record) {
	if end == AllDone {
		return
	}
	var ids, states []string
	for _, r := range recs {
		if r.Pending == "" {
			continue
		}
		id := termtext.SanitizeLine(r.ShortID)
		ids = append(ids, id)
		status := "not seen yet"
		if r.Detail != nil {
			status = "still " + termtext.SanitizeLine(r.Detail.Status)
		}
		states = append(states, fmt.Sprintf("run %s %s", id, status))
	}
	if len(ids) == 0 {
		return
	}
	what := fmt.Sprintf("timed out after %s", timeout)
	if end == Interrupted {
		what = "interrupted"
	}
	fmt.Fprintf(w, "\n%s: %s. The run goes on; resume waiting with:\n  %s\n",
		what, strings.Join(states, ", "), WaitCommand(ids))
}

// WaitCommand is the command line that waits on runs, given their
// sanitised short ids: the next step after a start, or the way to resume.
func WaitCommand(ids []string) string {
	return "testctl run wait " + strings.Join(ids, " ")
}
