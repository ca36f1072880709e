package logs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// withRunHint completes the 404 of a run's short id given where a run test
// case's is expected (`testctl logs r4m0gl`, the id `run start` printed):
// when the id names a run, the error lists its test cases and the command
// that reads one. Any other error, or a run that cannot be read, is
// returned as it came.
func withRunHint(ctx context.Context, client *api.Client, opts *Options, err error) error {
	var he *api.HTTPError
	if !errors.As(err, &he) || !api.IsNotFound(err) {
		return err
	}
	run, rerr := client.WithRetries(0).GetRun(ctx, opts.ShortID, api.GetRunOptions{TestCases: "all"})
	if rerr != nil || len(run.RunTestCases) == 0 {
		return err
	}
	hinted := *he
	hinted.Hint = runHint(run, opts, nextstep.From(ctx))
	return &hinted
}

// runHint lists a run's test cases (short id, name, status) and the exact
// command for the first that did not pass, else the first, with the flags
// the user gave, as steps renders it.
func runHint(run *api.RunDetail, opts *Options, steps nextstep.Renderer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is a run, not a test case of a run. Its test cases:\n", termtext.SanitizeLine(opts.ShortID))
	width := 0
	for _, tc := range run.RunTestCases {
		width = max(width, len([]rune(termtext.SanitizeLine(tc.ShortID))))
	}
	pick := run.RunTestCases[0]
	picked := false
	for _, tc := range run.RunTestCases {
		state := cmp.Or(tc.Result, tc.Status)
		id := termtext.SanitizeLine(tc.ShortID)
		fmt.Fprintf(&b, "  %s%s  %s  %s\n", id, strings.Repeat(" ", width-len([]rune(id))),
			clipName(termtext.SanitizeLine(tc.Name)), termtext.SanitizeLine(state))
		if c := verdict.ClassOf(tc, false); !picked && c != verdict.Passed && c != verdict.NotRun {
			pick, picked = tc, true
		}
	}
	if step := steps.Step(stepFor(pick.ShortID, opts)); step != "" {
		b.WriteString("Read one with: " + step)
	}
	return strings.TrimRight(b.String(), "\n")
}

func clipName(s string) string {
	const max = 60
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// stepFor is the logs command line of opts for another short id.
func stepFor(shortID string, opts *Options) nextstep.Step {
	args := []string{"logs", shortID, "--kind", kindFlag(opts.Query.Kind)}
	q := opts.Query
	if q.URLPattern != "" {
		args = append(args, "--url", q.URLPattern)
	}
	if q.StatusFilter != "" {
		args = append(args, "--status", q.StatusFilter)
	}
	if q.Kind == api.LogKindConsole && !q.IncludeWarnings {
		args = append(args, "--warnings=false")
	}
	if q.IncludeInfo {
		args = append(args, "--info")
	}
	if opts.Full {
		args = append(args, "--full")
	}
	return nextstep.Command(args...)
}

// kindFlag is the command line's spelling of a wire kind.
func kindFlag(kind string) string {
	if kind == api.LogKindAPICalls {
		return "api-calls"
	}
	return kind
}
