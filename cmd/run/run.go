// Package run groups the `testctl run` verbs: start, rerun, get, list, wait and report.
package run

import (
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/run/get"
	"github.com/testctl/testctl/cmd/run/list"
	"github.com/testctl/testctl/cmd/run/report"
	"github.com/testctl/testctl/cmd/run/rerun"
	"github.com/testctl/testctl/cmd/run/start"
	"github.com/testctl/testctl/cmd/run/wait"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// NewCmdRun builds `testctl run`.
func NewCmdRun(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "run <command>",
		Short: "Start, rerun, inspect, list, wait for and report on test runs",
		Long: `A run executes a test plan, or a list of test cases, against the project's
applications. Start one with a CI step's metadata, wait for its verdict and
gate the step on the exit code:

  0  PASSED (SKIPPED too, with a warning, unless --fail-on-skipped)
  1  FAILED        3  ERROR or CANCELLED        7  --timeout passed`,
		Example: `  testctl run start --plan pln-checkout_a1b2 --codehost --wait --junit report.xml
  testctl run list --status RUNNING
  testctl run get r1a2b3 --test-cases failed --issues
  testctl run wait r1a2b3 r4c5d6 --timeout 30m
  testctl run rerun r1a2b3 --failed-only --wait
  testctl run report r1a2b3 --junit report.xml --html report.html`,
	}, start.NewCmdStart(f, nil), get.NewCmdGet(f, nil), list.NewCmdList(f, nil), wait.NewCmdWait(f, nil),
		rerun.NewCmdRerun(f, nil), report.NewCmdReport(f, nil))
}
