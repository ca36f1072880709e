// Package list implements `testctl run list`.
package list

import (
	"cmp"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/paginate"
)

var planPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pln(-.+_.+|_.+)$`) })

// Options are the inputs of `run list`.
type Options struct {
	Status  string
	Result  string
	Trigger string
	Branch  string
	Plan    string
	Commit  string
	paginate.Flags
}

// Valid values of the enum filters, for validation and completion.
func statuses() []string {
	return []string{api.StatusInitiated, api.StatusRunning, api.StatusCompleted, api.StatusError, api.StatusCancelled}
}
func results() []string  { return []string{api.ResultPassed, api.ResultFailed, api.ResultSkipped} }
func triggers() []string { return []string{api.TriggerAPI, api.TriggerCodehost} }

// NewCmdList builds `run list`.
func NewCmdList(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "list [flags]",
		Short: "List runs, newest first",
		Long: `List the project's runs (GET /v1/run), newest first.

` + paginate.Help("runs") + `

The table shows STATUS/RESULT (a finished run's result alone on a terminal),
counts of passed, failed and other (errored, skipped, cancelled) test cases,
and when the run was created: relative on a terminal, RFC 3339 elsewhere. A
terminal leaves out a column empty on every row (BRANCH, COMMIT or PLAN of
runs started without them) and, too narrow for every column, COMMIT, then
PLAN, OTHER, PASS and BRANCH, as far as needed. --status is a run's status;
its verdict (PASSED, FAILED, SKIPPED) is --result.`,
		Example: `  testctl run list
  testctl run list --status COMPLETED --result FAILED --branch main --limit 50
  testctl run list --plan pln-checkout_a1b2 --trigger CODEHOST
  testctl run list --all -o json --jq '.runs[] | select(.failedCount > 0) | .shortId'`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return validate(opts, cmd.Flags().Changed("limit"))
		},
		RunE: cmdutil.RunE(f, opts, runF, listRun),
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Status, "status", "", "only runs in this `STATUS`: "+strings.Join(statuses(), ", "))
	fs.StringVar(&opts.Result, "result", "", "only runs with this `RESULT`: "+strings.Join(results(), ", "))
	fs.StringVar(&opts.Trigger, "trigger", "", "only runs started by this `TRIGGER`: "+strings.Join(triggers(), ", "))
	fs.StringVar(&opts.Branch, "branch", "", "only runs of this branch")
	fs.StringVar(&opts.Commit, "commit", "", "only runs of this commit (its full `SHA`, as the run was started with)")
	fs.StringVar(&opts.Plan, "plan", "", "only runs of the test plan with this short `ID`, pln_<id> or pln-<slug>_<id>")
	opts.Flags.Register(fs, "runs")
	for name, values := range map[string][]string{"status": statuses(), "result": results(), "trigger": triggers()} {
		_ = cmd.RegisterFlagCompletionFunc(name, completion.CompleteEnum(values...))
	}
	_ = cmd.RegisterFlagCompletionFunc("plan", completion.CompletePlans(f))
	return cmd
}

func validate(o *Options, limitSet bool) error {
	if err := cmp.Or(misplaced("status", o.Status, "result", results()), misplaced("result", o.Result, "status", statuses())); err != nil {
		return err
	}
	if err := cmp.Or(checkEnum("status", &o.Status, statuses()), checkEnum("result", &o.Result, results()),
		checkEnum("trigger", &o.Trigger, triggers())); err != nil {
		return err // the first invalid of the three
	}
	if o.Plan != "" && !planPattern().MatchString(o.Plan) {
		return exitcode.FlagErrorf("--plan %q is not a test plan short id: expected pln_<id> or pln-<slug>_<id>", o.Plan)
	}
	return o.Flags.Check(limitSet)
}

// misplaced refuses a value of the other of --status and --result, saying
// which flag takes it: FAILED is a result, not a status.
func misplaced(flag, value, other string, valid []string) error {
	for _, v := range valid {
		if strings.EqualFold(strings.TrimSpace(value), v) {
			return exitcode.FlagErrorf("invalid --%s %q: %s is a %s, not a %s: --%s %s", flag, value, v, other, flag, other, v)
		}
	}
	return nil
}

// checkEnum accepts a value in any case and stores the service's spelling.
func checkEnum(flag string, value *string, valid []string) error {
	if *value == "" {
		return nil
	}
	for _, v := range valid {
		if strings.EqualFold(strings.TrimSpace(*value), v) {
			*value = v
			return nil
		}
	}
	return exitcode.FlagErrorf("invalid --%s %q: valid values are %s", flag, *value, strings.Join(valid, ", "))
}
