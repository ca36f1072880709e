package report

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/shellwords"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// Resume is what the resume hint needs beyond the verdict.
type Resume struct {
	Timeout time.Duration
	// Args are the global flags that chose the service (--profile,
	// --base-url, …, never the key), for the resume command to ask the
	// same one.
	Args []string
	// Sandbox: the runs lived in the embedded sandbox, which ended with
	// this process; there is nothing to resume.
	Sandbox bool
	// Steps words the next steps the terminal summary suggests (nil: as
	// command lines; the MCP server's: as its tool calls).
	Steps nextstep.Renderer
}

// pending are the runs that may still go on in the service (resumable):
// their ids and states, and how the wait ended before them (the last Stop;
// "" when the service gave up on them).
func pending(v verdict.Verdict) (ids, states []string, stop verdict.Stop) {
	for _, r := range v.Runs {
		if !resumable(r) {
			continue
		}
		if r.Stop != "" {
			stop = r.Stop
		}
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
	return ids, states, stop
}

// resumable reports whether the run may still be going on in the service
// when the wait ended, so that waiting again can give it a verdict: the
// wait stopped before it did (a timeout, a signal), or the service kept
// failing (exit 6) before the run was seen to end. A run that does not
// exist (5) or that the key may not read (4) is not.
func resumable(r verdict.Run) bool {
	if r.NotStarted {
		return false
	}
	return r.Stop != "" || r.Code == exitcode.Service && (r.Detail == nil || !verdict.Final(r.Detail.Status))
}

// resumeCommand is the command that resumes the wait, "" when there is
// nothing to resume.
func resumeCommand(v verdict.Verdict, res Resume) string {
	ids, _, _ := pending(v)
	if len(ids) == 0 || res.Sandbox {
		return ""
	}
	return shellwords.WaitCommand(res.Args, ids)
}

// WriteResumeHint says how to resume when the wait ended before the runs
// did (timeout, Ctrl-C, SIGTERM): they go on in the service either way.
func WriteResumeHint(w io.Writer, v verdict.Verdict, res Resume) {
	ids, states, stop := pending(v)
	if len(ids) == 0 {
		return
	}
	what := cmp.Or(stopWords[stop], fmt.Sprintf("timed out after %s", res.Timeout))
	if stop == "" { // no wait stopped: the service failed them
		what = "the service kept failing"
	}
	if res.Sandbox {
		fmt.Fprintf(w, "\n%s: %s. The run ended with the embedded sandbox, which stops with this command.\n"+
			"To keep a sandbox between commands, serve one with `testctl sandbox` and point testctl at it:\n"+
			"  TESTCTL_BASE_URL=http://127.0.0.1:8787 TESTCTL_API_KEY=sandbox-project-key testctl run start …\n",
			what, strings.Join(states, ", "))
		return
	}
	step := nextstep.Or(res.Steps).Step(nextstep.Wait(res.Args, ids))
	if step == "" {
		fmt.Fprintf(w, "\n%s: %s. The run goes on.\n", what, strings.Join(states, ", "))
		return
	}
	fmt.Fprintf(w, "\n%s: %s. The run goes on; resume waiting with:\n  %s\n", what, strings.Join(states, ", "), step)
}

// stopWords say how a wait that did not time out ended.
var stopWords = map[verdict.Stop]string{verdict.Interrupted: "interrupted", verdict.Terminated: "terminated", verdict.Unfinished: "not finished"}
