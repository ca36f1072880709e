package wait

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/termtext"
)

// Resume is what the resume hint needs beyond the records.
type Resume struct {
	Timeout time.Duration
	// Args are the global flags that chose the service (--profile,
	// --base-url, …, never the key), for the resume command to ask the
	// same one.
	Args []string
	// Sandbox: the runs lived in the embedded sandbox, which ended with
	// this process; there is nothing to resume.
	Sandbox bool
}

// WriteResumeHint says how to resume when the wait ended before the runs
// did (timeout, Ctrl-C, SIGTERM): they go on in the service either way.
func WriteResumeHint(w io.Writer, end End, res Resume, recs []Record) {
	if end == AllDone {
		return
	}
	var ids, states []string
	code := 0
	for _, r := range recs {
		if r.Pending == "" {
			continue
		}
		code = r.Code
		id := termtext.SanitizeLine(r.ShortID)
		ids = append(ids, id)
		status := "not seen yet"
		switch {
		case r.Detail != nil:
			status = "still " + termtext.SanitizeLine(r.Detail.Status)
		case r.NotFoundYet:
			status = "not found yet"
		}
		states = append(states, fmt.Sprintf("run %s %s", id, status))
	}
	if len(ids) == 0 {
		return
	}
	what := fmt.Sprintf("timed out after %s", res.Timeout)
	switch code {
	case cmdutil.ExitInterrupted:
		what = "interrupted"
	case cmdutil.ExitTerminated:
		what = "terminated"
	}
	if res.Sandbox {
		fmt.Fprintf(w, "\n%s: %s. The run ended with the embedded sandbox, which stops with this command.\n"+
			"To keep a sandbox between commands, serve one with `testctl sandbox` and point testctl at it:\n"+
			"  TESTCTL_BASE_URL=http://127.0.0.1:8787 TESTCTL_API_KEY=sandbox-project-key testctl run start …\n",
			what, strings.Join(states, ", "))
		return
	}
	fmt.Fprintf(w, "\n%s: %s. The run goes on; resume waiting with:\n  %s\n",
		what, strings.Join(states, ", "), WaitCommand(res.Args, ids))
}

// WaitCommand is the command line that waits on runs, given their
// sanitised short ids and the global flags that chose the service (see
// cmdutil.GlobalFlags.ServiceArgs): the next step after a start, or the way
// to resume.
func WaitCommand(args, ids []string) string {
	return strings.Join(append(append([]string{"testctl"}, args...), append([]string{"run", "wait"}, ids...)...), " ")
}
