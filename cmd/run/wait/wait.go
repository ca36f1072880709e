// Package wait is `testctl run wait`: block until runs reach a verdict and
// exit with it.
package wait

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/run/shared"
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

Progress goes to stderr: on a terminal a live line with the elapsed time and
the test cases by status (a line per run when there are several, each showing
its verdict once it ends), each test case printed as it finishes; elsewhere one
line per change of state (a run status, a test case finishing), never one per
poll, and after --heartbeat (default 5m; 0 off) without any output a progress
line ("run r0a1b2 still RUNNING after 15:00: 3 of 7 done"), so a CI watchdog
that kills a silent step (CircleCI's ten minutes) never kills a long run. At the end stderr gets a summary of every test case that did not pass,
with the reason the evaluation gave.

Stdout carries only data: with -o json, -o yaml or --jq the final run detail
(one object for one run, an array for several), otherwise a table of the test
cases. On a timeout or Ctrl-C the last state seen is printed the same way.

Brief failures of the service or the network (5xx, 429, timeouts, dropped
connections, unreadable answers) never end a wait before --timeout: requests
are retried with backoff, honouring Retry-After, and a run is given up (exit
6) only after 10 failures in a row. A 404 for a run that run start created on
this machine less than 30 seconds ago is taken as a run that is not visible
yet; for any other id it means the run does not exist (exit 5). A key refused
for one run (401, 403) ends the wait on that run only; the others keep their
verdicts.

Exit codes: 0 every run PASSED (or SKIPPED, with a warning, unless
--fail-on-skipped); 1 a run FAILED (or SKIPPED with --fail-on-skipped); 3 a
run ended ERROR or CANCELLED; 4 the key was rejected; 5 a run does not exist;
6 the service kept failing; 7 --timeout passed; 8 a report (--junit, the
GitHub Actions files; never --comment) could not be written; 130 interrupted by Ctrl-C; 143
terminated (SIGTERM, as CI runners send on cancel). With several runs, or a
verdict and a report failure, the largest code wins. After a timeout, Ctrl-C
or SIGTERM the runs go on and the command to resume waiting is printed, with
the flags that chose the service (--profile, --base-url, …; never the key);
under --sandbox the runs end with the embedded sandbox instead.

--retry-failed N reruns the test cases of a run that ended COMPLETED with
FAILED that did not pass, together with those skipped (a test case that waits
for a failed one is skipped), by their project test case ids when the test
case list names each once, else with failedOnly (POST /v1/run/{shortId}); it
waits for the rerun, up to N times; ERROR and CANCELLED runs are not retried.
The verdict is over every test case, each with its last result across the
attempts: one that never ran again keeps its first (a skip fails the run with
--fail-on-skipped). Every attempt's short id and URL is printed and kept in
the reports, and JUnit reports each test case from the run it last ran in. A test case that failed and then passed is flaky: it gets a
section of its own in the summary ("passed on retry 1 of 2"), a ::warning
annotation in GitHub Actions and, in the JUnit report, a passing testcase
carrying a <flakyFailure> with its first failure (the Surefire convention).
A flaky run passes unless --fail-on-flaky (then exit 1).

--junit FILE writes a JUnit XML report: one testsuite per run, named after its
plan (its name, else its short id; "test cases" for a run of test case ids) so
that CI test history matches test cases across builds, one testcase per test
case (failure, error or skipped), and a "(run verdict)" testcase when the run's
own outcome is not a pass and no test case says why (timed out, interrupted,
FAILED with no failed test case, never read). The run's short id, URL and
attempt are in the suite's properties. The report is also written, partial,
after a timeout or an interruption.

In GitHub Actions (GITHUB_ACTIONS=true) a Markdown summary is appended to
$GITHUB_STEP_SUMMARY, each test case that did not pass becomes an annotation
(::error when it failed, errored or was cancelled; ::warning when it was
skipped, ::error if that fails the run through --fail-on-skipped) — at most
ten, as GitHub shows no more: failed first, then errored, then skipped, the
tenth saying how many more are in the step summary. Any line of service text
that the runner would read as a workflow command (::…, ##[…]) is printed
inside a ::stop-commands:: block, so only testctl's own annotations take
effect. $GITHUB_OUTPUT gets runs_json, every run as a JSON array in
the order given, and, for a single run, run_short_id, run_url, run_status
and run_result.

--comment keeps one pull request (GitHub) or merge request (GitLab) comment:
the verdict, each test case that did not pass with its story collapsed, the
run links and, with --html, the workflow run's artefacts. The first run
creates it and every later run of the same workflow job edits it, found by a
hidden marker (TESTCTL_COMMENT_KEY tells a matrix's legs apart). GitHub needs
a pull request event and GITHUB_TOKEN with pull-requests: write; GitLab a
merge request pipeline and TESTCTL_GITLAB_TOKEN. Where it cannot be written
(no pull request, no token, a fork's read-only token, the API failing or
silent for 10s) one notice says why and the exit code is unchanged.`,
		Example: `  # Wait for a run and exit with its verdict
  testctl run wait r0a1b2

  # Rerun failures once; pass if they then pass, but fail the step on flakiness
  testctl run wait r0a1b2 --retry-failed 1 --fail-on-flaky

  # Tell new failures from those main has too; only new ones fail the step
  testctl run wait r0a1b2 --baseline main --fail-on new

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
		PreRunE: func(_ *cobra.Command, args []string) error {
			opts.RunIDs = args
			if err := shared.ValidateRunIDs(args); err != nil {
				return err
			}
			return opts.Wait.ValidateWith(f.BaseURL, true, nil)
		},
		RunE: cmdutil.RunE(f, opts, runF, waitRun),
	}
	runwait.AddFlags(cmd.Flags(), &opts.Wait)
	_ = cmd.RegisterFlagCompletionFunc("fail-on", completion.CompleteEnum(runwait.FailOnValues...))
	return cmd
}

func waitRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	d, err := shared.WaitDeps(f)
	if err != nil {
		return err
	}
	return runwait.Runs(ctx, d, opts.Wait, runwait.KnownTargets(f.Getenv, d.Client.BaseURL, opts.RunIDs))
}
