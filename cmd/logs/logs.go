// Package logs implements `testctl logs`: the telemetry captured while one
// test case of a run executed.
package logs

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/completion"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
)

// Options are the inputs of `logs`.
type Options struct {
	ShortID string
	// Query holds the kind as the service spells it (apiCalls) and only
	// the filters that apply to it.
	Query api.LogsQuery
	Full  bool
	// PatternWarning is said on stderr when --url could not be checked here.
	PatternWarning string
}

// wireKind maps the command line's spelling of --kind to the service's.
func wireKind(kind string) (string, bool) {
	switch strings.ToLower(kind) {
	case "network":
		return api.LogKindNetwork, true
	case "console":
		return api.LogKindConsole, true
	case "api-calls", "apicalls":
		return api.LogKindAPICalls, true
	}
	return "", false
}

// NewCmdLogs builds `logs RUN_TEST_CASE_SHORTID`.
func NewCmdLogs(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	var kind string
	cmd := &cobra.Command{
		Use:   "logs RUN_TEST_CASE_SHORTID --kind network|console|api-calls",
		Short: "Show the network, console or API-call log of a test case in a run",
		Long: `Show what was captured while one test case of a run executed: the browser's
network requests, its console output, or (for API tests) the calls the agent
made. RUN_TEST_CASE_SHORTID is a test case's shortId in a run (run get SHORTID).

Filters, each for the kinds it applies to (others are a usage error):
  --url REGEX          network, api-calls: case-insensitive match on the URL
  --status VALUE       network, api-calls: all, errors (4xx, 5xx, failed), success
  --warnings           console: warnings too; on unless --warnings=false
  --info               console: info-level messages too
  --full               api-calls: request headers and bodies, response bodies

The console log always shows its errors and its log-level messages
(console.log): the service has no filter that leaves them out. --warnings
and --info add entries to them, as the service's includeWarnings and
includeInfo do.

The time column counts from the test case's first captured entry (+4.9s,
+23s), one origin for all three kinds, so a failed request and the console
error it caused line up; it is empty where the service gives no time. Given
a run's short id instead, the error lists the run's test cases.

The service caps the entries of one call; when it cut the result a note on
stderr says how many were shown of how many matched. Console messages come
from the tested page: escape sequences are removed from tables and escaped
in JSON. Values of credential headers (Authorization, Cookie, and names
holding token, key, secret, password or session) are masked in every format.`,
		Example: `  # Failed and erroring requests to the API
  testctl logs r7k2p9-3 --kind network --status errors --url '/api/'

  # Console errors, warnings and info; then without the warnings
  testctl logs r7k2p9-3 --kind console --info
  testctl logs r7k2p9-3 --kind console --warnings=false

  # Calls of an API test with headers and bodies
  testctl logs r7k2p9-8 --kind api-calls --full`,
		Args:              cmdutil.ExactArgs(1, "a run test case short id (from run get)", "testctl logs r4m0gl-1 --kind network"),
		ValidArgsFunction: completion.CompleteRunTestCases(f),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			return opts.parse(cmd, args[0], kind)
		},
		RunE: cmdutil.RunE(f, opts, runF, logsRun),
	}
	fl := cmd.Flags()
	fl.StringVar(&kind, "kind", "", "which log: network, console or api-calls (required)")
	fl.StringVar(&opts.Query.URLPattern, "url", "", "only entries whose URL matches this case-insensitive `REGEX` (network, api-calls)")
	fl.StringVar(&opts.Query.StatusFilter, "status", "", "all, errors or success (network, api-calls; default all)")
	fl.BoolVar(&opts.Query.IncludeWarnings, "warnings", true, "show console warnings too; --warnings=false leaves them out (console)")
	fl.BoolVar(&opts.Query.IncludeInfo, "info", false, "show info-level console messages too (console)")
	fl.BoolVar(&opts.Full, "full", false, "show request headers and bodies and response bodies (api-calls)")
	_ = cmd.RegisterFlagCompletionFunc("kind", cobra.FixedCompletions([]string{
		"network\tbrowser network requests", "console\tbrowser console output",
		"api-calls\tcalls made by an API test"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("status", cobra.FixedCompletions([]string{
		"all\tevery entry", "errors\t4xx, 5xx and requests that never completed",
		"success\t2xx and 3xx"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// filterFlag is a flag that means something for some kinds only.
type filterFlag struct {
	name  string
	kinds []string
	say   string
}

func filterFlags() []filterFlag {
	return []filterFlag{
		{"url", []string{api.LogKindNetwork, api.LogKindAPICalls}, "network or api-calls"},
		{"status", []string{api.LogKindNetwork, api.LogKindAPICalls}, "network or api-calls"},
		{"warnings", []string{api.LogKindConsole}, "console"},
		{"info", []string{api.LogKindConsole}, "console"},
		{"full", []string{api.LogKindAPICalls}, "api-calls"},
	}
}

// parse validates the command line into opts; nothing is sent on failure.
func (o *Options) parse(cmd *cobra.Command, shortID, kind string) error {
	o.ShortID = strings.TrimSpace(shortID)
	if strings.ContainsFunc(o.ShortID, func(r rune) bool { return r <= ' ' || r == 0x7f }) || api.CheckID("", o.ShortID) != nil {
		return exitcode.FlagErrorf("%q is not a run test case short id (see the test cases of `testctl run get SHORTID`)", shortID)
	}
	if kind == "" {
		return exitcode.FlagErrorf("--kind is required: network, console or api-calls")
	}
	wire, ok := wireKind(kind)
	if !ok {
		return exitcode.FlagErrorf("--kind must be network, console or api-calls, not %q", kind)
	}
	o.Query.Kind = wire
	// Warnings are shown by default, and only the console log has them.
	o.Query.IncludeWarnings = o.Query.IncludeWarnings && wire == api.LogKindConsole
	for _, ff := range filterFlags() {
		if cmd.Flags().Changed(ff.name) && !slices.Contains(ff.kinds, wire) {
			return exitcode.FlagErrorf("--%s applies only to --kind %s, not %s", ff.name, ff.say, kind)
		}
	}
	switch o.Query.StatusFilter {
	case "", "all", "errors", "success":
	default:
		return exitcode.FlagErrorf("--status must be all, errors or success, not %q", o.Query.StatusFilter)
	}
	if cmd.Flags().Changed("url") {
		w, err := checkURLPattern(o.Query.URLPattern)
		if err != nil {
			return err
		}
		o.PatternWarning = w
	}
	return nil
}

func logsRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	out, client, err := f.OutputAndClient()
	if err != nil {
		return err
	}
	ios := f.IOStreams
	if opts.PatternWarning != "" {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.ErrStyles().WarningIcon(), opts.PatternWarning)
	}
	resp, err := client.GetRunTestCaseLogs(ctx, opts.ShortID, opts.Query)
	if err != nil {
		return withRunHint(ctx, client, opts, err)
	}
	if err := maskHeaders(resp); err != nil {
		return err
	}
	empty := len(resp.Network)+len(resp.Console)+len(resp.APICalls) == 0
	var table *output.Table
	switch {
	case out.IsStructured():
		err = output.Print(ios.Out, out, resp)
		if beside := output.BesideStreams(out); err == nil && beside != nil && !empty {
			_, err = printTable(beside, resp, opts.Full)
		}
	case !empty:
		table, err = printTable(ios, resp, opts.Full)
	}
	if err != nil {
		return err
	}
	printNotes(ios, resp, opts.Query, empty && !out.IsStructured())
	// A reader who needs a whole URL or message learns where it is.
	output.NoteShortened(ios, table)
	return nil
}

// printNotes writes the service's message or, when the per-call cap cut
// the result, how much was shown and which flags narrow it: the service's
// own hint then names its query parameters (urlPattern), which testctl
// users never type. An empty table is no header, only a message. Notes go
// to stderr so that stdout stays data in every format.
func printNotes(ios *iostreams.IOStreams, resp *api.LogsResponse, q api.LogsQuery, emptyTable bool) {
	w, st := ios.ErrOut, ios.ErrStyles()
	switch {
	case resp.HasMore:
		fmt.Fprintf(w, "%s showing %d of %d matching entries%s\n", st.WarningIcon(), resp.Returned, resp.TotalMatched, narrowHint(resp.Kind, q))
	case resp.Message != "":
		fmt.Fprintln(w, st.Muted(flagWords.Replace(termtext.Sanitize(resp.Message))))
	case emptyTable:
		fmt.Fprintln(w, st.Muted("No entries match."))
	}
}

// flagWords puts testctl's flags where the service's message names its
// query parameters ("use a broader urlPattern or statusFilter=all"): a user
// of testctl types flags, never these. JSON output keeps the message as
// the service sent it.
var flagWords = strings.NewReplacer(
	"kind apiCalls", "--kind api-calls",
	"statusFilter=all", "--status all",
	"statusFilter", "--status",
	"urlPattern", "--url",
	"includeWarnings or includeInfo is true", "--warnings or --info is on",
	"includeWarnings", "--warnings",
	"includeInfo", "--info",
)

// narrowHint names the flags that would narrow a capped result of kind.
func narrowHint(kind string, q api.LogsQuery) string {
	if kind != api.LogKindConsole {
		return "; narrow the result with --url or --status"
	}
	switch {
	case q.IncludeWarnings && q.IncludeInfo:
		return "; narrow the result with --warnings=false, or without --info"
	case q.IncludeWarnings:
		return "; narrow the result with --warnings=false"
	case q.IncludeInfo:
		return "; narrow the result without --info"
	}
	return " (errors and log-level messages, which no filter leaves out: the service's cap per call)"
}
