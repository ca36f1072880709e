// Package cistep is `testctl ci-step`, hidden from help: the step of the
// GitHub Action and of the GitLab CI/CD component. They install testctl
// and call it with their inputs in the environment (TESTCTL_IN_*); it
// checks every input, turns them into a `run start` command line, prints
// that line on stderr (a user can run it as it is) and runs it in this
// process. What bash did before (splitting args, refusing a bad boolean,
// recording the exit code for a later step) is here, tested in Go, and the
// outputs a later step reads are written by cmd/root at the end, as for
// `run start` itself.
package cistep

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/testctl/testctl/pkg/appready"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/flagcheck"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/shellwords"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"github.com/testctl/testctl/pkg/termtext"
)

// InputPrefix starts the name of the variable of each input: the input
// retry-failed is TESTCTL_IN_RETRY_FAILED.
const InputPrefix = "TESTCTL_IN_"

// InputEnv is the variable that carries input name.
func InputEnv(name string) string {
	return InputPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// Options are what the step runs: the command line built from the inputs.
type Options struct {
	// Dotenv is --dotenv, given on to run start.
	Dotenv string
	// Args are the arguments of the command run, after the global flags
	// the step was given: "run start", ….
	Args []string
	// Globals are the global flags given to the step (--sandbox, …), which
	// the command run takes too.
	Globals []string
}

// Exec runs a command line of testctl in this process, as cmd/root runs
// the process's own, and returns its error.
type Exec func(ctx context.Context, args []string) error

// NewCmdCIStep builds `testctl ci-step`.
func NewCmdCIStep(f *cmdutil.Factory, exec Exec, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "ci-step",
		Short: "Run the step of the GitHub Action or the GitLab component from its inputs",
		Long: `Run the step of the GitHub Action or of the GitLab CI/CD component: its inputs
are read from TESTCTL_IN_* variables (TESTCTL_IN_PLAN, TESTCTL_IN_RETRY_FAILED, …),
checked, and turned into a 'testctl run start' command line, which is printed on
stderr and run. Hidden: the integrations call it; docs/ci.md says how to run a
step by hand.`,
		Hidden: true,
		Args:   cobra.NoArgs,
		PreRunE: func(*cobra.Command, []string) error {
			err := flagcheck.ValidateReportPath(stepoutputs.DotenvFlag, opts.Dotenv)
			if err == nil {
				opts.Args, err = StartArgs(f.Getenv, opts.Dotenv)
			}
			if err != nil {
				// An input mistake shows on the workflow run's page, as a
				// start the service refused does, not only in the log.
				ios := f.IOStreams
				for _, problem := range report.WriteStartRefused(f.Getenv, ios.WorkflowCommands(), "the step", err) {
					fmt.Fprintf(ios.ErrOut, "error: GitHub Actions: %s\n", termtext.Sanitize(problem))
				}
				return err
			}
			opts.Globals = givenGlobals(f.Globals)
			return nil
		},
		RunE: cmdutil.RunE(f, opts, runF, func(ctx context.Context, f *cmdutil.Factory, o *Options) error {
			fmt.Fprintln(f.IOStreams.ErrOut, CommandLine(o.Globals, o.Args))
			return exec(ctx, slices.Concat(o.Globals, o.Args))
		}),
	}
	cmd.Flags().StringVar(&opts.Dotenv, stepoutputs.DotenvFlag, "", "write the step's outputs as KEY=value lines to `FILE`, for GitLab's dotenv report")
	return cmd
}

// givenGlobals are the global flags given on the command line, as
// --name=value words: the command the step runs is parsed on a command
// tree of its own and takes them again.
func givenGlobals(g *cmdutil.GlobalFlags) []string {
	var out []string
	if g == nil || g.FlagSet == nil {
		return nil
	}
	// VisitAll and Changed, not Visit: cobra parses the root's persistent
	// flags on the command's own flag set, which alone counts them as set.
	g.FlagSet.VisitAll(func(fl *pflag.Flag) {
		if fl.Changed {
			out = append(out, "--"+fl.Name+"="+fl.Value.String())
		}
	})
	return out
}

// CommandLine is the command run, as a shell would take it, for the log:
// a user can paste it. A key given as a flag is never shown.
func CommandLine(globals, args []string) string {
	words := []string{"testctl"}
	for _, g := range globals {
		if g == "--api-key" || strings.HasPrefix(g, "--api-key=") {
			continue
		}
		words = append(words, shellwords.Word(g))
	}
	for i, a := range args {
		if i > 0 && args[i-1] == "--app" {
			a = appready.Redact(a) // a bypass token in the URL's query
		}
		words = append(words, shellwords.Word(a))
	}
	return strings.Join(words, " ")
}

// booleans are the inputs that are true or false, with their flag and
// their default (an empty input takes it: a step run by hand needs to
// set only what it changes).
var booleans = []struct {
	input, flag string
	def         bool
	// waitOnly: without wait the input is left out, as its default may be
	// on; needsWait: it is off by default, so on without wait is a mistake.
	waitOnly, needsWait bool
}{
	{"codehost", "--codehost", true, false, false},
	{"fail-on-skipped", "--fail-on-skipped", false, true, false},
	{"fail-on-flaky", "--fail-on-flaky", false, true, false},
	{"pass-with-no-tests", "--pass-with-no-tests", false, true, false},
	{"comment", "--comment", false, false, true},
}

// StartArgs checks the inputs in the environment and returns the `run
// start` arguments they make. Each mistake is a usage error (exit 2) that
// names the input and what it takes; nothing is started.
func StartArgs(getenv func(string) string, dotenv string) ([]string, error) {
	in := func(name string) string { return getenv(InputEnv(name)) }
	args := []string{"run", "start"}
	for _, p := range strings.Fields(in("plan")) {
		args = append(args, "--plan", p)
	}
	for _, tc := range strings.Fields(in("test-cases")) {
		args = append(args, "--test-case", tc)
	}
	for _, line := range strings.Split(in("app"), "\n") {
		if spec := strings.TrimSpace(line); spec != "" {
			args = append(args, "--app", spec)
		}
	}
	if v := strings.TrimSpace(in("preview")); v != "" {
		args = append(args, "--preview", v)
	}
	if v := strings.TrimSpace(in("wait-for-app")); v != "" {
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			return nil, usage("input wait-for-app is %q, not a duration like 10m", termtext.SanitizeLine(v))
		}
		args = append(args, "--wait-for-app", v)
	}
	wait, err := boolean("wait", in("wait"), true)
	if err != nil {
		return nil, err
	}
	for _, b := range booleans {
		on, err := boolean(b.input, in(b.input), b.def)
		if err != nil {
			return nil, err
		}
		if on && b.needsWait && !wait {
			return nil, usage("input %s needs wait true: it gives the verdict, which a start without wait does not have", b.input)
		}
		if on && (wait || !b.waitOnly) {
			args = append(args, b.flag)
		}
	}
	var waitArgs []string
	for _, name := range []string{"timeout", "interval"} {
		v := strings.TrimSpace(in(name))
		if v == "" {
			continue
		}
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			return nil, usage("input %s is %q, not a duration like 30m or 20s", name, termtext.SanitizeLine(v))
		}
		waitArgs = append(waitArgs, "--"+name, v)
	}
	if v := strings.TrimSpace(in("retry-failed")); v != "" {
		if n, err := strconv.Atoi(v); err != nil || n < 0 {
			return nil, usage("input retry-failed is %q, not a number of reruns like 2 (0 reruns nothing)", termtext.SanitizeLine(v))
		}
		waitArgs = append(waitArgs, "--retry-failed", v)
	}
	for _, name := range []string{"junit", "html", "ctrf", "baseline", "quarantine"} {
		v := strings.TrimSpace(in(name))
		if name == "baseline" && unexpanded(v) {
			// The component's default, $CI_MERGE_REQUEST_TARGET_BRANCH_NAME,
			// outside a merge request pipeline: no baseline, not a branch
			// of that name.
			v = ""
		}
		if v != "" {
			waitArgs = append(waitArgs, "--"+name, v)
		}
	}
	switch v := strings.TrimSpace(in("fail-on")); v {
	case "":
	case "new", "any":
		waitArgs = append(waitArgs, "--fail-on", v)
	default:
		return nil, usage("input fail-on is %q: new (only failures the baseline run did not have fail the job) or any", termtext.SanitizeLine(v))
	}
	switch v := strings.TrimSpace(in("ci-retry")); v {
	case "":
	case "failed", "all":
		args = append(args, "--ci-retry", v)
	default:
		return nil, usage("input ci-retry is %q: failed (a retried job takes up its earlier attempt's runs) or all (it starts anew)", termtext.SanitizeLine(v))
	}
	if wait {
		// Without wait nothing is awaited or reported: the inputs of the
		// wait, which have defaults (junit, html), are left out, as
		// before, rather than refused.
		args = append(append(args, "--wait"), waitArgs...)
	}
	if dotenv != "" {
		args = append(args, "--dotenv", dotenv)
	}
	for _, g := range []struct{ input, flag string }{{"base-url", "--base-url"}, {"project", "--project"}} {
		if v := strings.TrimSpace(in(g.input)); v != "" {
			args = append(args, g.flag, v)
		}
	}
	extra, err := shellwords.Split(in("args"))
	if err != nil {
		return nil, usage("input args: %s", err)
	}
	for _, a := range extra {
		if a == "--api-key" || strings.HasPrefix(a, "--api-key=") {
			return nil, usage("input args: %s", keyAdvice(getenv))
		}
	}
	return append(args, extra...), nil
}

// unexpanded reports whether v is a CI variable reference left as it was
// written ($NAME or ${NAME}): a variable the pipeline does not define.
func unexpanded(v string) bool {
	name := strings.TrimPrefix(v, "$")
	if name == v {
		return false
	}
	if inner, ok := strings.CutPrefix(name, "{"); ok {
		name, ok = strings.CutSuffix(inner, "}")
		if !ok {
			return false
		}
	}
	return name != "" && strings.TrimLeft(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == ""
}

// keyAdvice says where the key goes instead of args, whose words reach
// argv and the log: the Action's api-key input, the component's masked
// variable.
func keyAdvice(getenv func(string) string) string {
	switch {
	case getenv("GITHUB_ACTIONS") == "true":
		return "pass the key in the api-key input, never as an argument"
	case getenv("GITLAB_CI") != "": // gitlab-ci-local sets it to false
		return "the key is the TESTCTL_API_KEY variable (a masked CI/CD variable), never an argument"
	}
	return "the key goes in TESTCTL_API_KEY, never in an argument"
}

// boolean reads a true/false input; empty is its default.
func boolean(name, v string, def bool) (bool, error) {
	switch strings.TrimSpace(v) {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, usage("input %s must be true or false, not %q", name, termtext.SanitizeLine(v))
}

// usage is a mistake in an input: exit 2, without pointing to the help
// of a command the user never typed.
func usage(format string, a ...any) error {
	return exitcode.UsageErrorf(format, a...)
}
