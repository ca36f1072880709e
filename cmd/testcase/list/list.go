// Package list implements `testctl testcase list`.
package list

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/testcase/shared"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/paginate"
)

// Options are the inputs of `testcase list`.
type Options struct {
	App     string
	Labels  []string
	Enabled *bool // nil: both
	paginate.Flags
}

// NewCmdList builds `testcase list`.
func NewCmdList(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	var enabled string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the project's test cases",
		Long: `List the project's test cases (GET /v1/test-cases).

` + paginate.Help("testCases") + `

--label may be repeated or given a comma-separated list; a test case matches
when it carries any of the labels. Ids are printed whole at every width,
ready for run start --test-case; on a terminal times are relative, elsewhere
RFC 3339. A terminal too narrow for every column leaves out ENABLED, then
APPLICATION, LABELS, LAST RUN and LAST RESULT, as far as needed, then cuts
the name, and leaves it out where not even a few of its characters fit.`,
		Example: `  # Enabled smoke tests of one application
  testctl testcase list --app app_x1y2 --label smoke --enabled true

  # Every test case, as one JSON document
  testctl testcase list --all -o json

  # The ids of disabled test cases, for a script
  testctl testcase list --all --enabled false --jq '.testCases[].id'`,
		Aliases: []string{"ls"},
		Args:    cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return opts.parse(cmd, enabled)
		},
		RunE: cmdutil.RunE(f, opts, runF, listRun),
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.App, "app", "", "only test cases of this application (`app_ID`)")
	fl.StringArrayVar(&opts.Labels, "label", nil, "only test cases carrying any of these labels (repeatable or comma-separated)")
	fl.StringVar(&enabled, "enabled", "", "only enabled (true, yes) or disabled (false, no) test cases")
	opts.Flags.Register(fl, "test cases")
	_ = cmd.RegisterFlagCompletionFunc("enabled", cobra.FixedCompletions(
		[]string{"true\tonly enabled test cases", "false\tonly disabled test cases", "yes\tonly enabled test cases", "no\tonly disabled test cases"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// parse validates the flags into opts; nothing is sent on failure.
func (o *Options) parse(cmd *cobra.Command, enabled string) error {
	if o.App != "" {
		if err := shared.CheckPrefixed("app", o.App, "app_"); err != nil {
			return err
		}
	}
	labels, err := shared.SplitList("label", o.Labels)
	if err != nil {
		return err
	}
	o.Labels = labels
	if cmd.Flags().Changed("enabled") {
		// The table prints yes and no: what it prints, it takes.
		switch strings.ToLower(strings.TrimSpace(enabled)) {
		case "true", "yes":
			o.Enabled = new(true)
		case "false", "no":
			o.Enabled = new(false)
		default:
			return exitcode.FlagErrorf("--enabled must be true or false (or yes or no), not %q", enabled)
		}
	}
	return o.Flags.Check(cmd.Flags().Changed("limit"))
}

func listRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	out, client, err := f.OutputAndClient()
	if err != nil {
		return err
	}
	query := func(limit, offset int) api.ListTestCasesOptions {
		return api.ListTestCasesOptions{ApplicationShortID: opts.App, Labels: opts.Labels, IsEnabled: opts.Enabled,
			Limit: limit, Offset: offset}
	}
	cases := paginate.List[api.TestCase]{
		Key: "testCases", Noun: "test cases", Headers: headers, Row: newRowFunc(f),
		ID: func(tc api.TestCase) string { return tc.ID },
		Fetch: func(ctx context.Context, limit, offset int) (*paginate.Page[api.TestCase], error) {
			page, err := client.ListTestCases(ctx, query(limit, offset))
			if err != nil {
				return nil, err
			}
			return &paginate.Page[api.TestCase]{Items: page.TestCases, Total: int(page.Total), Doc: page}, nil
		},
		Raw: func(ctx context.Context, limit, offset int) (*api.RawList, error) {
			return client.ListTestCasesRaw(ctx, query(limit, offset))
		},
	}
	return cases.Run(ctx, f.IOStreams, out, opts.Flags)
}
