package setup

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
)

// loopCommands are the commands the instructions list, in the loop's order.
var loopCommands = []string{"run start", "run wait", "run report", "logs", "run rerun", "run get",
	"run list", "testcase list", "sandbox", "mcp"}

// documents are the -o json documents the instructions name the fields of.
var documents = []struct {
	commands string
	doc      any
}{
	{"`run start` (without `--wait`)", api.StartRunResponse{}},
	{"`run wait`, `run start --wait`, `run report`, `run get` (an array for several runs)", api.RunDetail{}},
	{"each of a run's `runTestCases`", api.RunTestCase{}},
	{"`run list`", api.RunList{}},
	{"`testcase list`", api.TestCaseList{}},
	{"`logs`", api.LogsResponse{}},
}

// guide is the instructions' body, Markdown, made from the command tree,
// the exit code table and the API's documents: the same bytes for the same
// testctl.
func guide(tree *cobra.Command) string {
	var b strings.Builder
	b.WriteString(`# testctl: this repository's end-to-end tests

Reach for testctl when a change touches what users do in the application
(a page, a flow, an API the front end calls), before saying such a change
works, and when the end-to-end tests failed in CI. testctl starts AI-driven
test runs on the test service, waits for their verdict, and explains each
failure with the evidence the run captured. It needs a key: if a command
exits 4, ask the user to run ` + "`testctl auth login`" + ` (never ask for the key).

## The loop

1. Start the plan that covers the change, and wait:
   ` + "`testctl run start --plan PLAN --wait`" + `. Progress goes to stderr, one line per
   change of state; the exit code is the verdict.
2. Read the story printed with the verdict: for each test case that did not
   pass, the reason, the failed requests, console errors and issues found.
   ` + "`testctl run report RUN`" + ` prints it again for a run that ended.
3. Look closer at one test case: ` + "`testctl logs RUN_TEST_CASE --kind network`" + `
   (or ` + "`console`, `api-calls`" + `; ` + "`--status errors`" + ` keeps the failures).
4. Fix the cause in the code.
5. Rerun only what failed: ` + "`testctl run rerun RUN --failed-only --wait`" + `.

## Commands

`)
	for _, path := range loopCommands {
		c, _, err := tree.Find(strings.Fields(path))
		if err != nil || c == tree {
			continue
		}
		fmt.Fprintf(&b, "- `%s`: %s\n", c.UseLine(), c.Short)
	}
	b.WriteString("\n`testctl COMMAND --help` gives each one's flags and examples.\n\n## Exit codes\n\n")
	for _, info := range exitcode.Table {
		fmt.Fprintf(&b, "- %d: %s\n", info.Code, info.Meaning)
	}
	b.WriteString(`
## JSON

With ` + "`-o json`" + ` (or ` + "`--jq EXPR`" + `, which filters it) stdout carries only the
service's own document; progress, warnings and errors go to stderr. The
top-level fields:

`)
	for _, d := range documents {
		fmt.Fprintf(&b, "- %s: %s\n", d.commands, fields(d.doc))
	}
	b.WriteString(`
## Rehearsing in the sandbox

` + "`--sandbox`" + ` runs any command against an emulator inside testctl, with no key
and no account: ` + "`testctl --sandbox run start --plan pln-failing_sandbox --wait`" + `.
Its plans are named for their verdict (` + "`pln-passing_sandbox`, `pln-failing_sandbox`" + `,
` + "`pln-flaky_sandbox`" + ` whose failures pass on a rerun, ` + "`pln-erroring_sandbox`" + `, …).

## MCP

Clients that prefer tools to a shell can run ` + "`testctl mcp`" + ` as an MCP server
(` + "`testctl mcp config --client claude|cursor|vscode`" + ` prints the snippet): the
same commands as tools, with structured results.
`)
	return b.String()
}

// fields are the JSON names of a document's top-level fields, in order.
func fields(doc any) string {
	t := reflect.TypeOf(doc)
	var names []string
	for i := range t.NumField() {
		tag := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		if tag != "" && tag != "-" {
			names = append(names, "`"+tag+"`")
		}
	}
	return strings.Join(names, ", ")
}
