// Package testcase groups the test case verbs.
package testcase

import (
	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/testcase/create"
	"github.com/testctl/testctl/cmd/testcase/list"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// NewCmdTestcase builds `testctl testcase`.
func NewCmdTestcase(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:     "testcase <command>",
		Short:   "List and create test cases",
		Aliases: []string{"testcases", "tc"},
		Long: `List the project's test cases and create new ones.

A test case created here is GENERATING at first: an automatic burn-in runs it
against the application to record its steps. It starts disabled and test plans
skip it until it is enabled in the web interface.`,
		Example: `  testctl testcase list --label smoke
  testctl testcase create --app app_x1y2 --name "Log in" --goal "Log in and reach the dashboard"`,
	}, list.NewCmdList(f, nil), create.NewCmdCreate(f, nil))
}
