// Package start implements `testctl run start`.
package start

import (
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/ciretry"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/codehost"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/runwait"
)

// Options are the inputs of `run start`, as parsed from the command line.
// Applications and Notifications hold the parsed --app and --notify values.
type Options struct {
	Plans       []string // one run per plan
	TestCaseIDs []string // one run of them all

	Trigger      string // "", API or CODEHOST
	triggerGiven bool   // --trigger was passed, not implied by --codehost
	Codehost     bool
	Meta         codehost.Meta // --actor --branch --commit --commit-message --repository

	AppSpecs         []string
	Applications     []api.RunApplication
	ApplicationsFile string
	ParametersFile   string
	Notify           []string
	Notifications    []api.Notification
	NoNotify         bool

	// CIRetry is --ci-retry: failed (take up a retried CI job's earlier
	// runs) or all (start anew).
	CIRetry string

	DryRun      bool
	Quiet       bool
	Wait        bool
	WaitOptions runwait.Options

	// Git runs git for --codehost outside CI; nil means the real git.
	Git codehost.GitFunc

	// againFlags are the other flags of the command line, for the note
	// of a start under --sandbox.
	againFlags []string

	AppWait // --wait-for-app, --preview
}

// NewCmdStart builds `run start`.
func NewCmdStart(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "start {--plan PLN... | --test-case ID...} [flags]",
		Short: "Start a test run from a plan or from test cases",
		Long: `Start a test run (POST /v1/run) from a test plan or from a list of test case ids.

As soon as the run exists its short id and URL are printed to stderr, so a CI
log always shows how to find it. A run is never started twice: when the
answer to the POST is lost (a 5xx, a timeout, a dropped connection), testctl
looks for the run it created and uses it: a new run that agrees with all the
run list shows (plan, trigger, branch, commit, the applications of --app or
--applications, the test count of --test-case ids). Only when none appears
within 30 s is the POST sent once more. Several candidates end with exit 6,
naming them; so does a new run of a start with overrides the list cannot show
(an environment, URL, device or build, --parameters, notifications), named
with the run wait line that takes it up if it is this job's.

Code-host metadata: --codehost reads actor, branch, commit, commit message and
repository from the CI environment, then from local git, and sets --trigger
CODEHOST. Explicit flags win. A tag (a tag push or pipeline, a detached
checkout at a tag) is sent as the branch. The CODEHOST trigger needs all five:
in CI (a service below, or CI set) a field still missing never stops the
start: it uses trigger API, sends what was found, and warns, naming the flag
that passes the field. Outside CI, or with --trigger CODEHOST given, it is
refused (exit 2) before anything is sent. CI services read:
  ` + codehost.CIProviders + `.

Applications: --app overrides one application's environment or device for
this run; it is repeatable and takes
  ` + AppSpecSyntax + `
A comma that does not start a KEY= pair belongs to the url or name before it.
--applications reads the same entries as a JSON array (file or - for stdin).

--parameters reads a JSON object with "configs" and/or "configsByEnvironment"
(file or - for stdin). --notify TYPE[:CHANNEL] replaces the project's
notifications for this run; --no-notify suppresses them all.

` + appWaitHelp + `

Several plans: --plan is repeatable, and each plan starts its own run, all at
once (four requests at a time), with the same metadata, applications,
notifications and parameters. Each run is announced as it exists; -q prints
one short id a line, in the order of the plans. A plan given twice is refused.
If a start fails for good, the runs already started go on (and are waited
for), and the exit code is the larger of that error's and the verdicts'.

A retried CI job (GitHub's GITHUB_RUN_ATTEMPT above 1, a job retried in its
GitLab pipeline) takes up, for each plan, the run its earlier attempt started
on the same commit: passed, nothing starts; failed, its failed test cases are
rerun; still going, it is waited on; none or several, a new run, saying why.
--ci-retry all starts anew. See 'A retried job' in docs/ci.md.

With --wait the command then behaves as ` + "`testctl run wait`" + ` on every run started: one
live view, one summary, one JUnit file with a suite per run, and the largest
exit code.`,
		Example: `  # Start a plan and gate the CI step on its verdict, with a JUnit report
  testctl run start --plan pln-checkout_a1b2 --codehost --wait --junit report.xml

  # Run two test cases against a preview deployment
  testctl run start --test-case 5a4db001-0000-4000-8000-000000000001 --test-case 5a4db004-0000-4000-8000-000000000004 \
    --app 'app_web,env=env_staging,url=https://pr-42.preview.example.com'

  # In a pull request: fail only on failures main does not have, with a quarantine
  testctl run start --plan pln-checkout_a1b2 --codehost --wait --baseline main --fail-on new \
    --quarantine .testctl/quarantine.yaml

  # Several plans in one CI step, one verdict and one JUnit file
  testctl run start --plan pln-checkout_a1b2 --plan pln-search_c3d4 --codehost --wait --junit report.xml

  # Test a pull request's Vercel preview once it is deployed and answers
  testctl run start --plan pln-checkout_a1b2 --codehost --wait --app app_web --preview github:Preview

  # Only print the short id, for scripts
  id=$(testctl run start --plan pln-checkout_a1b2 -q)

  # See the request without sending it
  testctl run start --plan pln-checkout_a1b2 --notify slack:#qa --parameters params.json --dry-run`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			opts.againFlags = runwait.AgainFlags(cmd.Flags(), "plan", "test-case", "wait")
			return validate(cmd.Context(), opts, cmd.Flags().Changed, f.BaseURL)
		},
		RunE: cmdutil.RunE(f, opts, runF, startRun),
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&opts.Plans, "plan", nil, "test plan short `ID` to run, pln_<id> or pln-<slug>_<id>; repeat it to start one run per plan at once")
	fs.StringSliceVar(&opts.TestCaseIDs, "test-case", nil, "test case `ID` to run instead of a plan (repeatable, or comma-separated)")
	fs.StringVar(&opts.Trigger, "trigger", "", "source of the run: API (the service's default) or CODEHOST")
	fs.BoolVar(&opts.Codehost, "codehost", false, "fill the code-host metadata from the CI environment or local git and set --trigger CODEHOST")
	fs.StringVar(&opts.Meta.Actor, "actor", "", "who triggered the run (CODEHOST)")
	fs.StringVar(&opts.Meta.Branch, "branch", "", "branch of the commit under test (CODEHOST)")
	fs.StringVar(&opts.Meta.Commit, "commit", "", "commit hash under test (CODEHOST)")
	fs.StringVar(&opts.Meta.CommitMessage, "commit-message", "", "message of the commit under test (CODEHOST)")
	fs.StringVar(&opts.Meta.Repository, "repository", "", "repository, like owner/name (CODEHOST)")
	fs.StringArrayVar(&opts.AppSpecs, "app", nil, "override an application for this run: `SPEC` is "+AppSpecSyntax+" (repeatable)")
	fs.StringVar(&opts.ApplicationsFile, "applications", "", "JSON array of applications entries from `FILE` (- for stdin)")
	fs.StringVar(&opts.ParametersFile, "parameters", "", "JSON object with configs / configsByEnvironment from `FILE` (- for stdin)")
	fs.StringArrayVar(&opts.Notify, "notify", nil, "notify `TYPE[:CHANNEL]` instead of the project's defaults, like slack:#qa (repeatable)")
	fs.BoolVar(&opts.NoNotify, "no-notify", false, "suppress all notifications of this run, project defaults included")
	fs.StringVar(&opts.CIRetry, "ci-retry", ciretry.Failed, "when the CI job is a retry: failed takes up its earlier attempt's run of each plan (passed: not run again; failed: its failures rerun; running: waited on), all starts anew")
	fs.BoolVar(&opts.DryRun, "dry-run", false, "print the request (method, URL, JSON body) instead of sending it")
	fs.BoolVarP(&opts.Quiet, "quiet", "q", false, "print only the run's short id on stdout")
	fs.BoolVar(&opts.Wait, "wait", false, "wait for the run's verdict, as 'testctl run wait' does, and exit with its code")
	runwait.AddFlags(fs, &opts.WaitOptions)
	_ = cmd.RegisterFlagCompletionFunc("ci-retry", completion.CompleteEnum(ciretry.Modes...))
	_ = cmd.RegisterFlagCompletionFunc("fail-on", completion.CompleteEnum(runwait.FailOnValues...))
	_ = cmd.RegisterFlagCompletionFunc("plan", completion.CompletePlans(f))
	_ = cmd.RegisterFlagCompletionFunc("trigger", completion.CompleteEnum(api.TriggerAPI, api.TriggerCodehost))
	_ = cmd.RegisterFlagCompletionFunc("notify", cobra.FixedCompletions([]string{"slack:", "email", "webhook"}, cobra.ShellCompDirectiveNoSpace|cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagFilename("applications", "json")
	_ = cmd.MarkFlagFilename("parameters", "json")
	addAppWaitFlags(fs, &opts.AppWait)
	_ = cmd.RegisterFlagCompletionFunc("preview", cobra.FixedCompletions([]string{"github", "github:"}, cobra.ShellCompDirectiveNoSpace|cobra.ShellCompDirectiveNoFileComp))
	return cmd
}
