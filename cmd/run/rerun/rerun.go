// Package rerun implements `testctl run rerun`.
package rerun

import (
	"context"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/idcheck"
	"github.com/testctl/testctl/pkg/reconcile"
	"github.com/testctl/testctl/pkg/runwait"
	"github.com/testctl/testctl/pkg/shellwords"
)

// Options are the inputs of `run rerun`.
type Options struct {
	ShortID     string
	FailedOnly  bool
	TestCaseIDs []string

	DryRun      bool
	Quiet       bool
	Wait        bool
	WaitOptions runwait.Options

	// againFlags are the flags of the command line, for the note of a
	// rerun under --sandbox.
	againFlags []string
}

// again is this rerun's command line but --wait, for the note.
func (o *Options) again() string {
	return strings.Join(append([]string{"testctl run rerun", shellwords.Word(o.ShortID)}, o.againFlags...), " ")
}

// NewCmdRerun builds `run rerun SHORTID`.
func NewCmdRerun(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "rerun SHORTID [--failed-only | --test-case UUID...] [flags]",
		Short: "Start a new run of a finished run, or of its failed test cases",
		Long: `Start a new run of a finished run (POST /v1/run/{shortId}) with the same plan,
trigger, branch, commit and applications. The original run is left as it was.

By default the new run runs all the test cases of the original; --failed-only
runs only those that failed, and --test-case runs the ones given (project test
case UUIDs, as ` + "`testctl testcase list -o json`" + ` shows them).

As soon as the new run exists its short id and URL are printed to stderr. A
run is never started twice: when the answer to the POST is lost (a 5xx, a
timeout, a dropped connection), testctl looks for the new run (same plan,
trigger, branch and commit as the original, as many tests as --test-case ids,
not there before) and uses it; only when none appears within 30 s is the POST
sent once more.

With --wait the command then behaves as ` + "`testctl run wait`" + ` on the new run and exits
with its code.`,
		Example: `  # Rerun the failed test cases of a run and gate the CI step on the new verdict
  testctl run rerun r0a1b2 --failed-only --wait --junit rerun.xml

  # Rerun two test cases of a run
  testctl run rerun r0a1b2 --test-case 5a4db001-0000-4000-8000-000000000001 \
    --test-case 5a4db004-0000-4000-8000-000000000004

  # Only print the new run's short id, for scripts
  id=$(testctl run rerun r0a1b2 --failed-only -q)

  # See the request without sending it
  testctl run rerun r0a1b2 --failed-only --dry-run`,
		Args:              cmdutil.ExactArgs(1, "the short id of the run to rerun", "testctl run rerun r4m0gl --failed-only"),
		ValidArgsFunction: completion.CompleteRunIDs(f),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			opts.ShortID = args[0]
			opts.againFlags = runwait.AgainFlags(cmd.Flags(), "wait")
			return validate(cmd.Context(), opts, cmd.Flags().Changed, f.BaseURL)
		},
		RunE: cmdutil.RunE(f, opts, runF, rerun),
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.FailedOnly, "failed-only", false, "rerun only the test cases that failed")
	fs.StringSliceVar(&opts.TestCaseIDs, "test-case", nil, "project test case `UUID` to rerun (repeatable, or comma-separated)")
	fs.BoolVar(&opts.DryRun, "dry-run", false, "print the request (method, URL, JSON body) instead of sending it")
	fs.BoolVarP(&opts.Quiet, "quiet", "q", false, "print only the new run's short id on stdout")
	fs.BoolVar(&opts.Wait, "wait", false, "wait for the new run's verdict, as 'testctl run wait' does, and exit with its code")
	runwait.AddFlags(fs, &opts.WaitOptions)
	_ = cmd.RegisterFlagCompletionFunc("fail-on", completion.CompleteEnum(runwait.FailOnValues...))
	return cmd
}

// validate checks everything the command line alone can tell, before
// anything is sent.
func validate(ctx context.Context, o *Options, changed func(string) bool, baseURL func() (string, error)) error {
	if err := runwait.ValidateRunIDs([]string{o.ShortID}); err != nil {
		return err
	}
	if o.FailedOnly && len(o.TestCaseIDs) > 0 {
		return exitcode.FlagErrorf("--failed-only and --test-case cannot be combined: rerun the failed test cases or the ones given")
	}
	for i, id := range o.TestCaseIDs {
		o.TestCaseIDs[i] = strings.TrimSpace(id)
		if !idcheck.IsUUID(o.TestCaseIDs[i]) {
			return exitcode.FlagErrorf("--test-case %q is not a UUID (like 5a4db001-0000-4000-8000-000000000001): "+
				"a rerun takes the ids of project test cases, see `testctl testcase list -o json`", id)
		}
	}
	if err := runwait.ValidateDryRun(o.DryRun, o.Quiet, o.Wait); err != nil {
		return err
	}
	return o.WaitOptions.ValidateWith(ctx, baseURL, o.Wait, changed)
}

func rerun(ctx context.Context, f *cmdutil.Factory, o *Options) error {
	out, err := f.Output()
	if err != nil {
		return err
	}
	req := api.RerunRequest{FailedOnly: o.FailedOnly, ProjectTestCaseIDs: o.TestCaseIDs}
	if o.DryRun {
		return runwait.PrintDryRun(f, out, api.RerunPath(o.ShortID), func(project string) []any {
			req.ProjectShortID = project // as RerunRun would
			return []any{req}
		})
	}
	client, err := f.APIClient()
	if err != nil {
		return err
	}
	rec, err := reconcile.ForCommand(f, client)
	if err != nil {
		return err
	}
	resp, err := reconcile.Rerun(ctx, rec, client, o.ShortID, req)
	if err != nil {
		return err
	}
	runwait.Announce(f.IOStreams, resp.Run)
	if err := runwait.PrintStarted(f, out, o.Quiet, o.Wait, []*api.StartRunResponse{resp}); err != nil {
		return err
	}
	target := runwait.StartedTarget(resp.Run, false, f.Clock.Now())
	if err := runwait.Started(f.IOStreams.ErrOut, f.Getenv, stepoutputs.FromContext(ctx), client.BaseURL, []runwait.RunTarget{target}, o.Wait); err != nil {
		return err
	}
	if !o.Wait {
		runwait.NoteSandboxRuns(f, []string{resp.Run.ShortID}, o.again(), false, false)
		return nil
	}
	err = runwait.WaitStarted(ctx, f, o.WaitOptions, o.Quiet, []runwait.RunTarget{target})
	runwait.NoteSandboxRuns(f, []string{resp.Run.ShortID}, o.again()+" --wait", true, err != nil)
	return err
}
