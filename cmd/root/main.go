package root

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/pkg/build"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/flagcheck"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/runwait"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// Main runs testctl with the process's arguments and returns its exit code.
// It is the only place that decides how an error ends the process.
func Main() int {
	ctx := context.Background()
	if !instant(os.Args[1:]) {
		// A second signal ends the process at once: the one os.Exit besides
		// main's, since the command it interrupts does not return. The
		// signals stay caught until the process has exited (no stop): one
		// that comes once the code is settled and stated, while the process
		// ends, must not end it with another status by the default action.
		ctx, _ = cmdutil.SignalContext(ctx, os.Exit)
		// A closed stdout pipe is then a write that writes nothing (see
		// iostreams.Stdout), not the end of the process by SIGPIPE: the
		// reports, the exit code file and the command's code survive
		// `… -o json | head`.
		signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	}
	f, cleanup := factory.New(build.Current().Version, factory.ProcessOptions())
	defer cleanup()
	return Run(ctx, f, os.Args[1:])
}

// instantCommands print and end, sending nothing and writing no file: they
// need no signal handling, whose watcher threads cost start-up a seventh
// (0.5 ms of 3.9), which a shell pays on every Tab (__complete) and a CI
// step on every version check. Ctrl-C ends them as it ends any program.
var instantCommands = []string{"version", "--version", "help", "--help", "-h", "completion",
	cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd}

// instant reports whether args name an instant command first; anything
// else, global flags before it included, gets the signal handling.
func instant(args []string) bool {
	return len(args) > 0 && slices.Contains(instantCommands, args[0])
}

// Run executes one command line with the given factory, for Main and tests.
func Run(ctx context.Context, f *cmdutil.Factory, args []string) int {
	// The command line's own record of its runs and reports (ci-step's
	// inner command line shares it), for the files of the step's end.
	step := &stepoutputs.Step{}
	cmd, err := execute(stepoutputs.NewContext(ctx, step), f, args)
	code := handleError(ctx, f, cmd, err)
	code = endStep(f, step, cmd, code)
	f.IOStreams.FlushGuards()
	return code
}

// execute runs one command line on a new command tree and returns the
// command that ran and its error. For `ci-step` that is the `run start` it
// ran, when it got that far: its flags say what the step's outputs are,
// and its help is the one a mistake in them points to.
func execute(ctx context.Context, f *cmdutil.Factory, args []string) (*cobra.Command, error) {
	var inner *cobra.Command
	root := newCmdRoot(f, func(ctx context.Context, args []string) error {
		c, err := execute(ctx, f, args)
		inner = c
		return err
	})
	root.SetArgs(args)
	root.SetIn(f.IOStreams.In)
	root.SetOut(f.IOStreams.Out)
	root.SetErr(f.IOStreams.ErrOut)
	cmd, err := root.ExecuteContextC(ctx)
	if inner != nil {
		cmd = inner
	}
	return cmd, err
}

// endStep writes what a later CI step or job reads of a command that
// starts runs or gives their verdict (those with --dotenv: run start,
// wait, report, rerun and ci-step), once, with the final code, when the
// reports of a verdict did not already (a usage error, a start that
// failed, runs started without a wait): the --dotenv file, under GitHub
// Actions the outputs exit-code and verdict (and junit and html, when
// written), and $TESTCTL_EXIT_CODE_FILE and $TESTCTL_VERDICT_FILE for any
// command. Each is probed before any is written: one that cannot be
// written makes the code 8, which all of them then state; one that fails
// after its probe raises the code for those written after it.
func endStep(f *cmdutil.Factory, step *stepoutputs.Step, cmd *cobra.Command, code int) int {
	if step.Ended() {
		return code
	}
	started := startedOnly(cmd)
	verdictCmd := cmd != nil && cmd.Flags().Lookup(stepoutputs.DotenvFlag) != nil
	files := stepoutputs.FilesOf(f.Getenv, verdictCmd)
	files.Warn, files.Word = f.IOStreams.ErrOut, func(code int) string { return verdict.Word(code, started) }
	if verdictCmd {
		files.Dotenv = cmd.Flags().Lookup(stepoutputs.DotenvFlag).Value.String()
		if code == exitcode.Usage && flagcheck.ValidateReportPath(stepoutputs.DotenvFlag, files.Dotenv) != nil {
			// The usage error is that path (or may be, with another): a
			// second error about it would turn exit 2 into 8.
			files.Dotenv = ""
		}
	}
	// The same settle-then-state as the reports of a verdict, for these
	// files alone.
	m := &report.Multiplexer{ErrOut: f.IOStreams.ErrOut, Reporters: report.SinkReporters(step.Sinks(files))}
	return exitcode.Of(m.End(report.Outcome{Verdict: verdict.Verdict{Code: code}}))
}

// The variables naming the files that get the exit code and its word
// (stepoutputs.ExitCodeFileEnv).
const (
	ExitCodeFileEnv = stepoutputs.ExitCodeFileEnv
	VerdictFileEnv  = stepoutputs.VerdictFileEnv
)

// startedOnly reports whether the command starts runs without waiting for
// them (run start or run rerun without --wait): its success is "started",
// not "passed".
func startedOnly(cmd *cobra.Command) bool {
	if cmd == nil {
		return false
	}
	wait := cmd.Flags().Lookup("wait")
	return wait != nil && wait.Value.String() == "false"
}

func handleError(ctx context.Context, f *cmdutil.Factory, cmd *cobra.Command, err error) int {
	if err == nil {
		return exitcode.OK
	}
	errOut := f.IOStreams.ErrOut
	if isCobraUsageError(err) {
		err = &exitcode.FlagError{Err: err}
	}
	if exitErr, ok := errors.AsType[*exitcode.Error](err); ok && exitErr.Silent() {
		return exitErr.Code
	}
	code := exitcode.Of(err)
	if code == exitcode.Interrupted && errors.Is(err, context.Canceled) {
		if code = cmdutil.InterruptCode(ctx); code == exitcode.Terminated {
			fmt.Fprintln(errOut, "terminated")
			return code
		}
		fmt.Fprintln(errOut, "interrupted")
		return code
	}
	msg := err.Error()
	if w, ok := errors.AsType[nextstep.Worded](err); ok && w.Error() == msg {
		msg = w.Worded(nextstep.From(ctx))
	}
	// Error messages can carry the service's text: never let it drive the terminal.
	fmt.Fprintf(errOut, "error: %s\n", termtext.Sanitize(msg))
	runwait.NoteSandboxNotFound(f, err)
	if _, ok := errors.AsType[*exitcode.FlagError](err); ok && cmd != nil {
		if usage := nextstep.From(ctx).Usage(cmd.CommandPath()); usage != "" {
			fmt.Fprintln(errOut, usage)
		}
	}
	return code
}

// isCobraUsageError recognises cobra's own argument errors, which are plain
// errors without a type.
func isCobraUsageError(err error) bool {
	return slices.ContainsFunc([]string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires at least", "requires at most", "invalid argument", "flag needs an argument", "required flag", "if any flags in the group", "none of the others can be", "at least one of the flags"},
		func(prefix string) bool { return strings.HasPrefix(err.Error(), prefix) })
}
