// Package create implements `testctl testcase create`.
package create

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/config"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/reconcile"
	"github.com/testctl/testctl/pkg/termtext"
)

const createPath = "/v1/test-cases"

// Options are the inputs of `testcase create`.
type Options struct {
	Name, Goal, App string
	ExpectedResult  string
	Configs         []string
	Scenario        string
	ResumeFrom      string
	WaitFor         []string
	DryRun          bool

	// Request is the validated body, built before runF is called.
	Request api.CreateTestCaseRequest
}

// NewCmdCreate builds `testcase create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "create --name NAME --goal GOAL --app APP",
		Short: "Create a test case from a goal",
		Long: `Create a test case in the key's project. The platform generates its steps:
the new test case is GENERATING while an automatic burn-in runs it against the
application. It starts disabled, and test plans do not run it until it is
enabled in the web interface.

Dependencies are the UUIDs of project test cases (see testcase list -o json):
--resume-from continues one test's browser session (cookies, local and
session storage) and runs after it; --wait-for (repeatable) starts only after
all the listed tests PASSED, in a fresh session. A test cannot do both with
the same dependency.

Everything is checked before sending: a bad flag exits 2 and creates nothing.
When the answer is lost (a 5xx, a timeout, a dropped connection), the test
case it created (same name, application and goal, not there before) is used; only
when none appears within 30 s is the request sent once more.
Prints the new test case's id on stdout (the whole response with -o json).`,
		Example: `  testctl testcase create --app app_x1y2 --name "Apply a coupon" \
    --goal "Apply coupon SPRING-2025 at checkout and see the discount" \
    --expected-result "The total drops by 20%" --config cfg_admin

  # Continue the session of the login test
  testctl testcase create --app app_x1y2 --name "Add to cart" --goal "Add a product to the cart" \
    --resume-from 5a4db001-0000-4000-8000-000000000001

  # See the request without sending it
  testctl testcase create --app app_x1y2 --name "Smoke" --goal "Open the home page" --dry-run`,
		Args: cobra.NoArgs,
		PreRunE: func(*cobra.Command, []string) (err error) {
			opts.Request, err = opts.request()
			return err
		},
		RunE: cmdutil.RunE(f, opts, runF, createRun),
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Name, "name", "", "name of the test case, 1 to 80 characters (required)")
	fl.StringVar(&opts.Goal, "goal", "", "the objective the test must reach (required)")
	fl.StringVar(&opts.App, "app", "", "application to test, `app_ID` (required)")
	fl.StringVar(&opts.ExpectedResult, "expected-result", "", "what success looks like")
	fl.StringArrayVar(&opts.Configs, "config", nil, "config made available to the test, `cfg_ID` (repeatable or comma-separated)")
	fl.StringVar(&opts.Scenario, "scenario", "", "scenario of the test, `scenario_ID`")
	fl.StringVar(&opts.ResumeFrom, "resume-from", "", "continue the browser session of this test case (`UUID`)")
	fl.StringArrayVar(&opts.WaitFor, "wait-for", nil, "start only after this test case passed (`UUID`, repeatable or comma-separated)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the request instead of sending it")
	return cmd
}

func createRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	out, err := f.Output()
	if err != nil {
		return err
	}
	body, err := json.Marshal(opts.Request)
	if err != nil {
		return err
	}
	if opts.DryRun {
		return printDryRun(f, out, body)
	}
	client, err := f.APIClient()
	if err != nil {
		return err
	}
	rec, err := reconcile.ForCommand(f, client)
	if err != nil {
		return err
	}
	created, err := reconcile.CreateTestCase(ctx, rec, client, opts.Request)
	if err != nil {
		return err
	}
	ios := f.IOStreams
	stdout := ios.Out
	if out.IsStructured() {
		err = output.Print(ios.Out, out, created) // the service's document, every field as sent
		stdout = nil
		if beside := output.BesideStreams(out); beside != nil {
			stdout = beside.Out
		}
	}
	if err == nil && stdout != nil && created.ID != "" {
		_, err = fmt.Fprintln(stdout, termtext.SanitizeLine(created.ID))
	}
	if err != nil {
		return err
	}
	printNote(f, opts.Request.Name, *created)
	return nil
}

// printNote says on stderr what a new user would not guess: the test is
// still being generated and will not run in plans until enabled.
func printNote(f *cmdutil.Factory, name string, c api.CreateTestCaseResponse) {
	ios := f.IOStreams
	st := ios.ErrStyles()
	status := cmp.Or(c.GenerationStatus, api.GenerationGenerating)
	id := ""
	if c.ID != "" {
		id = " (" + c.ID + ")"
	}
	fmt.Fprintf(ios.ErrOut, "%s Created test case %q%s.\n", st.SuccessIcon(), termtext.SanitizeLine(name), termtext.SanitizeLine(id))
	fmt.Fprintf(ios.ErrOut, "  It is %s: an automatic burn-in runs it against the application to record its steps.\n",
		st.Warning(termtext.SanitizeLine(status)))
	if !c.IsEnabled {
		fmt.Fprintln(ios.ErrOut, "  It starts disabled: enable it in the web interface before test plans will run it.")
	}
}

// printDryRun shows the request on stdout. It needs no key, so a request can
// be reviewed before one is configured; the base URL is shown when known.
func printDryRun(f *cmdutil.Factory, out output.Options, body []byte) error {
	target := createPath
	if cfg, err := f.Config(); err != nil {
		return err
	} else if base := cfg.Get(config.KeyBaseURL); base != "" {
		target = strings.TrimRight(base, "/") + createPath
	}
	return output.PrintDryRun(f.IOStreams, out, output.DryRun{Method: http.MethodPost, URL: target, Body: json.RawMessage(body)})
}
