package get

import (
	"cmp"
	"context"
	"fmt"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

func getRun(ctx context.Context, f *cmdutil.Factory, o *Options) error {
	out, client, err := f.OutputAndClient()
	if err != nil {
		return err
	}
	if o.Legacy {
		return getLegacy(ctx, f.IOStreams, o, out, client)
	}
	d, err := client.GetRun(ctx, o.ShortID, api.GetRunOptions{TestCases: o.TestCases, Issues: o.Issues})
	if err != nil {
		return err
	}
	if err := api.CheckRunDetail(d, o.ShortID); err != nil {
		return err
	}
	d.ShortID = cmp.Or(d.ShortID, o.ShortID)
	ios := f.IOStreams
	if o.JUnitFile != "" {
		// The failed test cases alone cannot tell a run that ran none.
		vo := verdict.Options{PassWithNoTests: o.TestCases == TestCasesFailed}
		if err := report.WriteJUnitFile(o.JUnitFile, verdict.Decide([]verdict.Record{{ShortID: d.ShortID, Detail: d}}, vo), nil); err != nil {
			return &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf("writing the JUnit report: %w", err)}
		}
		fmt.Fprintf(ios.ErrOut, "JUnit report written to %s\n", termtext.SanitizeLine(o.JUnitFile))
	}
	if out.IsStructured() {
		if err := output.Print(ios.Out, out, d); err != nil || out.Beside == nil {
			return err
		}
		ios = output.BesideStreams(out)
	}
	v := view{ios: ios, failedOnly: o.TestCases == TestCasesFailed}
	if err := v.printRun(d); err != nil {
		return err
	}
	if o.Issues {
		return v.printIssues(d.Issues)
	}
	return nil
}

// getLegacy reads the deprecated address, for services or scripts that have
// not moved to /v1 yet, and says so every time.
func getLegacy(ctx context.Context, ios *iostreams.IOStreams, o *Options, out output.Options, client *api.Client) error {
	if client.LegacyBaseURL == "" {
		return exitcode.UsageErrorf("--legacy needs a legacy base URL. Set one of:\n" +
			"  --legacy-base-url https://…                 (this command only)\n" +
			"  TESTCTL_LEGACY_BASE_URL=https://…           (environment)\n" +
			"  testctl config set legacy_base_url https://… (saved in the active profile)")
	}
	s := ios.ErrStyles()
	fmt.Fprintf(ios.ErrOut, "%s %s\n", s.WarningIcon(), s.Warning(fmt.Sprintf(
		"--legacy reads a deprecated address that may stop working; use `testctl run get %s` (the /v1 address) instead.",
		termtext.SanitizeLine(o.ShortID))))
	d, err := client.GetLegacyRun(ctx, o.ProjectUUID, o.ShortID)
	if err != nil {
		return err
	}
	if out.IsStructured() {
		return output.Print(ios.Out, out, d)
	}
	v := view{ios: ios, failedOnly: true}
	return v.printRun(&api.RunDetail{ShortID: d.ShortID, Status: d.Status, Result: d.Result, RunTestCases: d.FailedTestCases})
}
