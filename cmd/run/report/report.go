// Package report is `testctl run report`: the verdict, the failure story
// and the reports of runs that have ended, as the end of `run wait` would
// give them, without waiting.
package report

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/runwait"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// Options are the inputs of `run report`.
type Options struct {
	RunIDs []string
	Report runwait.Options
}

// NewCmdReport builds `run report SHORTID…`.
func NewCmdReport(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "report SHORTID...",
		Short: "Show why runs failed and write their reports, without waiting",
		Long: `Read runs that have ended and give their verdict as run wait would: the
summary on stderr with a numbered block for every test case that did not pass
(its evaluation, the evidence the service captured — failed network requests,
console errors, failed API calls, detected issues — and the commands that show
more), the data on stdout (with -o json or --jq one object for one run, an
array for several: --jq '.[].status'), and the reports asked for: --junit,
--html, the pull request comment of --comment (see run wait --help) and, in
GitHub Actions, the step summary, annotations and outputs.

It is the second half of "start now, report later": a CI step starts the runs
(run start), another waits or reports on them.

The exit code is the one run wait would give for the same runs: 0 passed,
1 failed, 3 ERROR or CANCELLED, 5 a run does not exist; a run that has not
ended yet is reported as it stands, with exit 7 and the run wait command that
takes it up. Gathering evidence never changes the exit code; --evidence 0
turns it off.`,
		Example: `  # Why did it fail?
  testctl run report r0a1b2

  # Which failures are new against main, and which are quarantined?
  testctl run report r0a1b2 --baseline main --quarantine .testctl/quarantine.yaml

  # CI: publish the reports of a run started by an earlier step
  testctl run report "$RUN_ID" --junit results.xml --html report.html`,
		Args:              cmdutil.MinimumArgs(1, "at least one run short id", "testctl run report r4m0gl"),
		ValidArgsFunction: completion.CompleteRunIDs(f),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			opts.RunIDs = args
			if err := runwait.ValidateRunIDs(args); err != nil {
				return err
			}
			return opts.Report.ValidateReport(cmd.Context())
		},
		RunE: cmdutil.RunE(f, opts, runF, reportRun),
	}
	runwait.AddReportFlags(cmd.Flags(), &opts.Report)
	_ = cmd.RegisterFlagCompletionFunc("fail-on", completion.CompleteEnum(runwait.FailOnValues...))
	return cmd
}

func reportRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	d, err := runwait.WaitDeps(ctx, f)
	if err != nil {
		return err
	}
	var recs []verdict.Record
	for _, t := range runwait.KnownTargets(f.Getenv, d.Client.BaseURL, opts.RunIDs) {
		r := read(ctx, d.Client, t)
		if r.Err != nil {
			// Said here, as run wait says it when it gives up on a run:
			// the summary's "no verdict" line points to it.
			fmt.Fprintf(f.IOStreams.ErrOut, "error: run %s: %s\n", termtext.SanitizeLine(t.ShortID), termtext.Sanitize(r.Err.Error()))
		}
		recs = append(recs, r)
	}
	return runwait.Finish(ctx, d, opts.Report, recs)
}

// IssuesBudget bounds the read of a run with its issues. Without it a
// service that never answers that read held the report for the whole
// request timeout (30 s), though the issues are only evidence.
const IssuesBudget = 3 * time.Second

// issuesBudget is IssuesBudget, which tests shrink.
var issuesBudget = IssuesBudget

// read is one run as it stands.
func read(ctx context.Context, c *api.Client, t runwait.RunTarget) verdict.Record {
	r := verdict.Record{ShortID: t.ShortID, URL: t.URL, Plan: t.Plan}
	// With its issues, the evidence's, to save a request; but a service
	// failing to give them must not cost the verdict or hold it up: after
	// one failed attempt, or issuesBudget without an answer, the run is
	// read again without them, with the client's retries, and the evidence
	// asks for them apart.
	ictx, cancel := context.WithTimeout(ctx, issuesBudget)
	d, err := c.WithRetries(0).GetRun(ictx, t.ShortID, api.GetRunOptions{TestCases: "all", Issues: true})
	cancel()
	if err != nil && !api.IsNotFound(err) {
		d, err = c.GetRun(ctx, t.ShortID, api.GetRunOptions{TestCases: "all"})
	}
	if err == nil {
		err = api.CheckRunDetail(d, t.ShortID)
	}
	if err != nil {
		r.Err = err
		return r
	}
	d.ShortID = cmp.Or(d.ShortID, t.ShortID)
	r.Detail = d
	if !verdict.Final(d.Status) {
		r.Stop = verdict.Unfinished
	}
	return r
}
