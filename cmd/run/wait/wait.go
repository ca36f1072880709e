// Package wait is `testctl run wait`: block until runs reach a verdict and
// exit with it.
package wait

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/runwait"
)

// Options are the inputs of `run wait`.
type Options struct {
	RunIDs []string
	Wait   runwait.Options
}

// NewCmdWait builds `run wait SHORTID…`.
func NewCmdWait(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "wait SHORTID...",
		Short: "Wait for runs to finish and exit with their verdict",
		Long: `Poll runs every --interval until each is COMPLETED, ERROR or CANCELLED, then
exit with the verdict, so a CI step can gate on it.

Progress goes to stderr: a live view on a terminal; elsewhere one line per
change of state, and a line after --heartbeat of silence. Stdout carries only
data: the test cases as a table, or the final run detail with -o json, -o yaml
or --jq (an array for several runs: --jq '.[].status'). At the end stderr tells
the failure story of each test case that did not pass, with its evidence.

Brief failures of the service are retried with backoff; a run is given up
after 10 failed requests in a row (exit 6). After a timeout, Ctrl-C or SIGTERM
the runs go on, and the command that resumes the wait is printed.

Exit codes: 0 passed, 1 failed, 3 ERROR or CANCELLED, 4 key rejected, 5 no
such run, 6 the service kept failing, 7 --timeout, 8 a report not written,
130 and 143 interrupted; several runs give the largest (testctl help
exit-codes).

The rest (--retry-failed and flaky test cases, JUnit, the GitHub Actions
summary, annotations and outputs, --dotenv, --comment): testctl help waiting.`,
		Example: `  # Wait for a run and exit with its verdict
  testctl run wait r0a1b2

  # Rerun failures once; pass if they then pass, but fail the step on flakiness
  testctl run wait r0a1b2 --retry-failed 1 --fail-on-flaky

  # Several runs at once; the exit code is the worst of them
  testctl run wait r0a1b2 r0c3d4 --timeout 30m

  # CI: gate the job and publish a JUnit report
  testctl run wait "$RUN_ID" --interval 20s --timeout 45m --junit results.xml

  # Only the final status, for a script
  testctl run wait r0a1b2 --jq .status

  # GitHub Actions step
  #   - run: testctl run wait ${{ steps.start.outputs.run_short_id }} --junit results.xml
  #   - if: always()
  #     uses: mikepenz/action-junit-report@v4
  #     with: { report_paths: results.xml }`,
		Args:              cmdutil.MinimumArgs(1, "at least one run short id", "testctl run wait r4m0gl"),
		ValidArgsFunction: completion.CompleteRunIDs(f),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			opts.RunIDs = args
			if err := runwait.ValidateRunIDs(args); err != nil {
				return err
			}
			return opts.Wait.ValidateWith(cmd.Context(), f.BaseURL, true, nil)
		},
		RunE: cmdutil.RunE(f, opts, runF, waitRun),
	}
	runwait.AddFlags(cmd.Flags(), &opts.Wait)
	_ = cmd.RegisterFlagCompletionFunc("fail-on", completion.CompleteEnum(runwait.FailOnValues...))
	return cmd
}

func waitRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	d, err := runwait.WaitDeps(ctx, f)
	if err != nil {
		return err
	}
	return runwait.Runs(ctx, d, opts.Wait, runwait.KnownTargets(f.Getenv, d.Client.BaseURL, opts.RunIDs))
}
