// Package list implements `testctl testcase list`.
package list

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/testcase/shared"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/output"
)

// Options are the inputs of `testcase list`.
type Options struct {
	Factory *cmdutil.Factory

	App     string
	Labels  []string
	Enabled *bool // nil: both
	Limit   int   // 0: the service's page size
	Offset  int
	All     bool
}

// NewCmdList builds `testcase list`.
func NewCmdList(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Factory: f}
	var enabled string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the project's test cases",
		Long: `List the project's test cases, one page at a time (the service's page size is
20), or every page with --all, which streams them as they arrive.

--label may be repeated or given a comma-separated list; a test case matches
when it carries any of the labels. On a terminal ids are shortened to 8
characters and times are relative; elsewhere both are printed in full.`,
		Example: `  # Enabled smoke tests of one application
  testctl testcase list --app app_x1y2 --label smoke --enabled true

  # Every test case, as one JSON document
  testctl testcase list --all -o json

  # The ids of disabled test cases, for a script
  testctl testcase list --all --enabled false --jq '.testCases[].id'`,
		Aliases: []string{"ls"},
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.parse(cmd, enabled); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.App, "app", "", "only test cases of this application (`app_ID`)")
	fl.StringArrayVar(&opts.Labels, "label", nil, "only test cases carrying any of these labels (repeatable or comma-separated)")
	fl.StringVar(&enabled, "enabled", "", "only enabled (true) or disabled (false) test cases")
	fl.IntVar(&opts.Limit, "limit", 0, "test cases per page (default: the service's, 20)")
	fl.IntVar(&opts.Offset, "offset", 0, "skip this many test cases first")
	fl.BoolVar(&opts.All, "all", false, "follow the pages to the end, streaming the output")
	_ = cmd.RegisterFlagCompletionFunc("enabled", cobra.FixedCompletions(
		[]string{"true\tonly enabled test cases", "false\tonly disabled test cases"}, cobra.ShellCompDirectiveNoFileComp))
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
		switch strings.ToLower(enabled) {
		case "true":
			o.Enabled = new(true)
		case "false":
			o.Enabled = new(false)
		default:
			return cmdutil.FlagErrorf("--enabled must be true or false, not %q", enabled)
		}
	}
	if cmd.Flags().Changed("limit") && o.Limit < 1 {
		return cmdutil.FlagErrorf("--limit must be at least 1, not %d", o.Limit)
	}
	if o.Offset < 0 {
		return cmdutil.FlagErrorf("--offset must not be negative, not %d", o.Offset)
	}
	return nil
}

func listRun(ctx context.Context, opts *Options) error {
	f := opts.Factory
	out, err := f.Output()
	if err != nil {
		return err
	}
	client, err := f.APIClient()
	if err != nil {
		return err
	}
	lw := output.NewListWriter(f.IOStreams, out, "testCases", headers, newRowFunc(f))
	q := api.ListTestCasesOptions{ApplicationShortID: opts.App, Labels: opts.Labels, IsEnabled: opts.Enabled,
		Limit: opts.Limit, Offset: opts.Offset}
	page, err := client.ListTestCases(ctx, q)
	if err != nil {
		return err
	}
	if !opts.All {
		if err := lw.Add(page.TestCases...); err != nil {
			return err
		}
		if err := lw.Close(map[string]any{"total": page.Total, "limit": page.Limit, "offset": page.Offset}); err != nil {
			return err
		}
		noneHint(f, out, lw.Count())
		moreHint(f, out, page, opts.Offset)
		return nil
	}
	// Pages advance by what was returned rather than by --limit, so the
	// walk is right whatever page size the service chose. The document is
	// left unterminated on an error (see output.ListWriter), so a consumer
	// never takes a partial list for the whole.
	for {
		if err := lw.Add(page.TestCases...); err != nil {
			return err
		}
		q.Offset += len(page.TestCases)
		if len(page.TestCases) == 0 || q.Offset >= int(page.Total) {
			break
		}
		if page, err = client.ListTestCases(ctx, q); err != nil {
			return err
		}
	}
	if err := lw.Close(map[string]any{"total": page.Total}); err != nil {
		return err
	}
	noneHint(f, out, lw.Count())
	return nil
}

// noneHint says so when a table is only its header: an empty stdout would
// look like a failure.
func noneHint(f *cmdutil.Factory, out output.Options, count int) {
	if count == 0 && !out.IsStructured() {
		fmt.Fprintln(f.IOStreams.ErrOut, "No test cases match.")
	}
}

// moreHint tells a person at a terminal that the table is one page of more.
func moreHint(f *cmdutil.Factory, out output.Options, page *api.TestCaseList, offset int) {
	ios := f.IOStreams
	shown := offset + len(page.TestCases)
	if out.IsStructured() || !ios.IsStderrTTY() || len(page.TestCases) == 0 || shown >= int(page.Total) {
		return
	}
	fmt.Fprintln(ios.ErrOut, ios.ErrStyles().Muted(fmt.Sprintf(
		"Showing %d–%d of %d; use --all for every page, or --offset %d for the next.", offset+1, shown, page.Total, shown)))
}
