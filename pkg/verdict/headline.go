package verdict

import (
	"fmt"
	"strings"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/termtext"
)

// Tally is the verdict's counts in words, as every report's headline gives
// them: "3 passed · 1 failed across 2 runs", then the starts that failed
// ("· 1 not started"), which are no run and hold no test case.
func (v Verdict) Tally() string {
	runs, notStarted, maybe := 0, 0, 0
	for _, r := range v.Runs {
		switch {
		case r.MaybeStarted:
			maybe++
		case r.NotStarted:
			notStarted++
		default:
			runs++
		}
	}
	var parts []string
	if runs > 0 || notStarted+maybe == 0 {
		parts = append(parts, v.Counts.String()+" across "+termtext.Plural(runs, "run"))
	}
	if notStarted > 0 {
		parts = append(parts, fmt.Sprintf("%d not started", notStarted))
	}
	if maybe > 0 {
		parts = append(parts, fmt.Sprintf("%d may have started", maybe))
	}
	return strings.Join(parts, " · ")
}

// Word is what an exit code means in a word, the GitHub Action's verdict
// output: passed, failed, usage, error, auth, not-found, service, timeout,
// local, interrupted, terminated, or unknown; started for a command that
// started runs without waiting for them and succeeded.
func Word(code int, started bool) string {
	if code == exitcode.OK && started {
		return "started"
	}
	if w, ok := codeWords[code]; ok {
		return w
	}
	return "unknown"
}

var codeWords = map[int]string{
	exitcode.OK: "passed", exitcode.Failed: "failed", exitcode.Usage: "usage", exitcode.RunError: "error",
	exitcode.Auth: "auth", exitcode.NotFound: "not-found", exitcode.Service: "service", exitcode.Timeout: "timeout",
	exitcode.Local: "local", exitcode.Interrupted: "interrupted", exitcode.Terminated: "terminated",
}
