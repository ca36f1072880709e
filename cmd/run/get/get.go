// Package get implements `testctl run get`.
package get

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/flagcheck"
	"github.com/testctl/testctl/pkg/idcheck"
)

// Test case filters of get run (the service's testCases query member).
const (
	TestCasesAll    = "all"
	TestCasesFailed = "failed"
)

// Options are the inputs of `run get`.
type Options struct {
	ShortID     string
	TestCases   string // all or failed
	Issues      bool
	Legacy      bool
	ProjectUUID string
	JUnitFile   string
}

// NewCmdGet builds `run get SHORTID`.
func NewCmdGet(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "get SHORTID",
		Short: "Show a run's status, result and test cases",
		Long: `Show a run (GET /v1/run/{shortId}): its status and result, then a table of its
test cases (short id, name, status, result and the evaluation's title), and
with --issues the issues detected during the run. -o json prints the service's
run detail. --junit writes the run as a JUnit XML report.

--legacy reads the deprecated legacy address instead
({legacy_base_url}/projects/{projectUuid}/runs/{shortId}); it needs the
project's UUID and a legacy base URL, and returns only failed test cases.`,
		Example: `  testctl run get r1a2b3
  testctl run get r1a2b3 --test-cases failed --issues
  testctl run get r1a2b3 -o json --jq '.runTestCases[] | select(.result == "FAILED") | .name'
  testctl run get r1a2b3 --junit report.xml
  testctl run get r1a2b3 --legacy --project-uuid 5a4db000-0000-4000-8000-0000000000e0`,
		Args: cmdutil.ExactArgs(1, "a run short id", "testctl run get r4m0gl"),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			opts.ShortID = args[0]
			return validate(opts, cmd.Flags().Changed)
		},
		RunE: cmdutil.RunE(f, opts, runF, getRun),
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.TestCases, "test-cases", TestCasesAll, "which test cases to show: all, or failed (failed, skipped or errored)")
	fs.BoolVar(&opts.Issues, "issues", false, "also show the issues detected during the run")
	fs.BoolVar(&opts.Legacy, "legacy", false, "read the deprecated legacy address (needs --project-uuid)")
	fs.StringVar(&opts.ProjectUUID, "project-uuid", "", "the project's `UUID`, for --legacy")
	fs.StringVar(&opts.JUnitFile, "junit", "", "write a JUnit XML report of the run to `FILE`")
	_ = cmd.RegisterFlagCompletionFunc("test-cases", completion.CompleteEnum(TestCasesAll, TestCasesFailed))
	completeRun := completion.CompleteRunIDs(f)
	cmd.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeRun(c, args, toComplete)
	}
	return cmd
}

func validate(o *Options, changed func(string) bool) error {
	o.ShortID = strings.TrimSpace(o.ShortID)
	if err := idcheck.ValidateRunID(o.ShortID); err != nil {
		return err
	}
	o.TestCases = strings.ToLower(strings.TrimSpace(o.TestCases))
	if o.TestCases != TestCasesAll && o.TestCases != TestCasesFailed {
		return exitcode.FlagErrorf("invalid --test-cases %q: valid values are %s, %s", o.TestCases, TestCasesAll, TestCasesFailed)
	}
	switch {
	case o.Legacy && o.ProjectUUID == "":
		return exitcode.FlagErrorf("--legacy needs --project-uuid: the legacy address names the project by its UUID")
	case !o.Legacy && o.ProjectUUID != "":
		return exitcode.FlagErrorf("--project-uuid applies to --legacy only; the current address takes the project from the key or --project")
	case o.Legacy && !idcheck.IsUUID(o.ProjectUUID):
		return exitcode.FlagErrorf("--project-uuid %q is not a UUID", o.ProjectUUID)
	case o.Legacy && o.Issues:
		return exitcode.FlagErrorf("--issues is not available with --legacy: the legacy address has no issues")
	case o.Legacy && changed("test-cases"):
		return exitcode.FlagErrorf("--test-cases is not available with --legacy: the legacy address returns failed test cases only")
	case o.Legacy && o.JUnitFile != "":
		return exitcode.FlagErrorf("--junit is not available with --legacy: a report of the failed test cases alone would misstate the run")
	}
	return flagcheck.ValidateReportPath("junit", o.JUnitFile)
}
