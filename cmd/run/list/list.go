// Package list implements `testctl run list`.
package list

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/lazyregexp"
)

// Page sizes: the service's default page, and the largest it accepts,
// which --all uses to need as few requests as possible.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

var planPattern = lazyregexp.New(`^pln(-.+_.+|_.+)$`)

// Options are the inputs of `run list`.
type Options struct {
	Factory *cmdutil.Factory
	Status  string
	Result  string
	Trigger string
	Branch  string
	Plan    string
	Limit   int
	Offset  int
	All     bool
}

// Valid values of the enum filters, for validation and completion.
func statuses() []string {
	return []string{api.StatusInitiated, api.StatusRunning, api.StatusCompleted, api.StatusError, api.StatusCancelled}
}
func results() []string  { return []string{api.ResultPassed, api.ResultFailed, api.ResultSkipped} }
func triggers() []string { return []string{api.TriggerAPI, api.TriggerCodehost} }

// NewCmdList builds `run list`.
func NewCmdList(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	cmd := &cobra.Command{
		Use:   "list [flags]",
		Short: "List runs, newest first",
		Long: `List the project's runs (GET /v1/run), newest first, one page at a time
(--limit, --offset), or every page with --all.

--all streams: each page is printed as it arrives, so memory stays flat over a
long history and -o json is still one JSON document ({"runs": [...], "total": N}).
With --all, --limit is the page size (default and maximum ` + "100" + `).

The table shows STATUS/RESULT (a finished run's result alone on a terminal),
counts of passed, failed and other (errored, skipped, cancelled) test cases,
and when the run was created: relative on a terminal, RFC 3339 elsewhere.`,
		Example: `  testctl run list
  testctl run list --status COMPLETED --result FAILED --branch main --limit 50
  testctl run list --plan pln-checkout_a1b2 --trigger CODEHOST
  testctl run list --all -o json --jq '.runs[] | select(.failedCount > 0) | .shortId'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := validate(opts, cmd.Flags().Changed("limit")); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Status, "status", "", "only runs in this `STATUS`: "+strings.Join(statuses(), ", "))
	fs.StringVar(&opts.Result, "result", "", "only runs with this `RESULT`: "+strings.Join(results(), ", "))
	fs.StringVar(&opts.Trigger, "trigger", "", "only runs started by this `TRIGGER`: "+strings.Join(triggers(), ", "))
	fs.StringVar(&opts.Branch, "branch", "", "only runs of this branch")
	fs.StringVar(&opts.Plan, "plan", "", "only runs of this test plan (`pln_…`)")
	fs.IntVarP(&opts.Limit, "limit", "L", DefaultLimit, "runs per page (1 to 100)")
	fs.IntVar(&opts.Offset, "offset", 0, "runs to skip, newest first")
	fs.BoolVar(&opts.All, "all", false, "follow the pages to the end, streaming them")
	for name, values := range map[string][]string{"status": statuses(), "result": results(), "trigger": triggers()} {
		_ = cmd.RegisterFlagCompletionFunc(name, cmdutil.CompleteEnum(values...))
	}
	return cmd
}

func validate(o *Options, limitSet bool) error {
	for _, e := range []struct {
		flag  string
		value *string
		valid []string
	}{{"status", &o.Status, statuses()}, {"result", &o.Result, results()}, {"trigger", &o.Trigger, triggers()}} {
		if err := checkEnum(e.flag, e.value, e.valid); err != nil {
			return err
		}
	}
	if o.Plan != "" && !planPattern.MatchString(o.Plan) {
		return cmdutil.FlagErrorf("--plan %q is not a test plan short id: expected pln_<id> or pln-<slug>_<id>", o.Plan)
	}
	if o.Limit < 1 || o.Limit > MaxLimit {
		return cmdutil.FlagErrorf("--limit must be between 1 and %d, not %d", MaxLimit, o.Limit)
	}
	if o.Offset < 0 {
		return cmdutil.FlagErrorf("--offset must not be negative, not %d", o.Offset)
	}
	if o.All && !limitSet {
		o.Limit = MaxLimit
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
	return cmdutil.FlagErrorf("invalid --%s %q: valid values are %s", flag, *value, strings.Join(valid, ", "))
}
