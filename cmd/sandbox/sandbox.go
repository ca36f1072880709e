// Package sandbox implements `testctl sandbox`: serving the embedded
// emulator of the service for other processes (another shell, a CI script).
package sandbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/sandbox"
	"github.com/testctl/testctl/pkg/termtext"
)

// DefaultAddr is where `testctl sandbox` listens unless told otherwise.
const DefaultAddr = "127.0.0.1:8787"

// Options are the inputs of `testctl sandbox`.
type Options struct {
	Addr      string
	Speed     float64
	FaultRate float64
	Latency   time.Duration
	History   int
	Seed      int64
	// SeedGiven: --seed was given, so the ids of the runs started are the
	// seed's too; otherwise they are this process's own.
	SeedGiven bool
	// VisibilityDelay is the hidden --visibility-delay: for rehearsing a
	// client's grace for runs the service does not show yet.
	VisibilityDelay time.Duration
	// FailingTestCases is the hidden --failing-test-cases: for benchmarks
	// of the failure reports, a plan of that many failing test cases.
	FailingTestCases int
	// RunEndDelay is the hidden --run-end-delay: for measuring how soon
	// a wait sees a run end that follows its last test case.
	RunEndDelay time.Duration

	// onReady, for tests, receives the instance once it is listening.
	onReady func(*sandbox.Instance)
}

// NewCmdSandbox builds `testctl sandbox`.
func NewCmdSandbox(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Serve an emulator of the service to try testctl without an account",
		Long: `Serve an in-memory emulator of the whole service over HTTP until interrupted
(Ctrl-C or SIGTERM). Its base URL and keys are printed on stderr; point testctl
(or any HTTP client) at it from another shell. To run a single command against
a private emulator instead, use the global --sandbox flag.

Fixtures:
  keys      ` + sandbox.ProjectKey + `     project-scoped, project ` + sandbox.ProjectShortID + `
            ` + sandbox.OrgKey + `         organization-scoped: pass --project ` + sandbox.ProjectShortID + `
            ` + sandbox.LimitKey + `       starting a run answers 402 (usage limit)
            ` + sandbox.SuspendedKey + `   every call answers 403 (suspended)
  plans     pln-passing_sandbox (10 s), pln-failing_sandbox, pln-erroring_sandbox,
            pln-cancelled_sandbox, pln-skipped_sandbox, pln-slow_sandbox (one hour),
            pln-flaky_sandbox (its failed test cases pass when rerun),
            pln-baseline_sandbox (--branch feature --baseline main: one new
            failure, one known), pln-empty_sandbox (no test case: exit 1
            unless --pass-with-no-tests)
  app       app_sandbox-web with environment env_sandbox-staging
  runners   runner-healthy, runner-degraded, runner-inactive, runner-nostatus,
            runner-warming (healthy after 20 s)

Times are sandbox time: --speed 60 turns the slow plan's hour into a minute.
--fault-rate fails that share of requests with a transient 500, 502, 503, 429
or dropped connection, to rehearse retries; a write (starting a run, a rerun,
creating a test case) may instead be carried out and then lose its answer (a
500 or a dropped connection), the failure a client must not turn into a
duplicate. Everything random (history, logs, faults) is reproducible for a
--seed. GET /_sandbox/stats counts requests, runs created and faults.`,
		Example: `  # Serve on 127.0.0.1:8787, then use it from another shell
  testctl sandbox
  export TESTCTL_BASE_URL=http://127.0.0.1:8787 TESTCTL_API_KEY=sandbox-project-key
  testctl run start --plan pln-failing_sandbox --wait

  # Rehearse a CI script: time 60x faster, one request in five fails
  testctl sandbox --speed 60 --fault-rate 0.2 --seed 7

  # A free port (printed on stderr), 10,000 past runs, 200 ms per response
  testctl sandbox --addr 127.0.0.1:0 --history 10000 --latency 200ms`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.SeedGiven = cmd.Flags().Changed("seed")
			if err := opts.validate(); err != nil {
				return err
			}
			return cmdutil.Dispatch(cmd.Context(), f, opts, runF, sandboxRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Addr, "addr", DefaultAddr, "address to listen on, host:port (port 0 picks a free one)")
	fl.Float64Var(&opts.Speed, "speed", 1, "how many times faster than real time sandbox time runs")
	fl.Float64Var(&opts.FaultRate, "fault-rate", 0, "share of requests, 0 to 1, that fail (writes may be carried out, then lose their answer)")
	fl.DurationVar(&opts.Latency, "latency", 0, "delay added to every response, like 150ms")
	fl.IntVar(&opts.History, "history", sandbox.DefaultHistory, "number of past runs listed by run list (0 for none)")
	fl.Int64Var(&opts.Seed, "seed", 0, "seed of everything random: history, telemetry, faults, ids of runs started (without it, ids of this process alone)")
	fl.DurationVar(&opts.VisibilityDelay, "visibility-delay", 0, "how long a new run stays invisible (404, not listed), as the service's may")
	_ = fl.MarkHidden("visibility-delay") // for tests of a client's grace, not for trying testctl
	fl.IntVar(&opts.FailingTestCases, "failing-test-cases", 0, "add this many failing test cases and the plan "+sandbox.PlanRegressions+" that runs them")
	_ = fl.MarkHidden("failing-test-cases") // for benchmarks of the failure reports
	fl.DurationVar(&opts.RunEndDelay, "run-end-delay", 0, "how long, in sandbox time, a run goes on after its last test case ended")
	_ = fl.MarkHidden("run-end-delay") // for benchmarks of how soon a wait sees the end
	return cmd
}

func (o *Options) validate() error {
	_, _, err := net.SplitHostPort(o.Addr)
	switch {
	case err != nil:
		return exitcode.FlagErrorf("--addr must be host:port, like %s, not %q", DefaultAddr, o.Addr)
	case math.IsNaN(o.Speed) || math.IsInf(o.Speed, 0) || o.Speed <= 0:
		return exitcode.FlagErrorf("--speed must be a positive number, like 1 or 60")
	case math.IsNaN(o.FaultRate) || o.FaultRate < 0 || o.FaultRate > 1:
		return exitcode.FlagErrorf("--fault-rate must be between 0 and 1, like 0.2")
	case o.Latency < 0:
		return exitcode.FlagErrorf("--latency must not be negative")
	case o.RunEndDelay < 0:
		return exitcode.FlagErrorf("--run-end-delay must not be negative")
	case o.VisibilityDelay < 0:
		return exitcode.FlagErrorf("--visibility-delay must not be negative")
	case o.FailingTestCases < 0 || o.FailingTestCases > sandbox.MaxFailingTestCases:
		return exitcode.FlagErrorf("--failing-test-cases must be between 0 and %d", sandbox.MaxFailingTestCases)
	case o.History < 0 || o.History > sandbox.MaxHistory:
		return exitcode.FlagErrorf("--history must be between 0 and %d", sandbox.MaxHistory)
	}
	return nil
}

func sandboxRun(ctx context.Context, f *cmdutil.Factory, o *Options) error {
	history := cmp.Or(o.History, -1) // the package reads 0 as "default"
	// Without --seed, a sandbox started again does not give its runs the
	// ids of the last one's, which a local record may still name.
	var idSeed int64
	if !o.SeedGiven {
		idSeed = sandbox.ProcessIDSeed()
	}
	inst, err := sandbox.Listen(o.Addr, sandbox.Options{Clock: f.Clock, Speed: o.Speed,
		FaultRate: o.FaultRate, Latency: o.Latency, History: history, Seed: o.Seed, IDSeed: idSeed, VisibilityDelay: o.VisibilityDelay, RunEndDelay: o.RunEndDelay,
		FailingTestCases: o.FailingTestCases, BaselineHistory: o.History != 0}) // --history 0: no past run at all
	if err != nil {
		return listenError(o.Addr, err)
	}
	errOut := f.IOStreams.ErrOut
	printBanner(errOut, inst, o)
	if o.onReady != nil {
		o.onReady(inst)
	}
	<-ctx.Done()
	err = inst.Close()
	st := inst.Server.Stats()
	sum := func(m map[string]int) (n int) {
		for _, v := range m {
			n += v
		}
		return n
	}
	fmt.Fprintf(errOut, "Sandbox stopped after %s (%s started, %s injected, of which %d lost the answer of a write carried out).\n",
		termtext.Plural(sum(st.Requests), "request"), termtext.Plural(st.RunsStarted, "run"), termtext.Plural(st.FaultsInjected, "fault"), sum(st.LostAnswers))
	if err != nil {
		return fmt.Errorf("stopping the sandbox: %w", err)
	}
	return nil
}

// listenError says why the sandbox could not listen on addr, and what to
// do about it: a local failure (exit 8), not a failed test (1).
func listenError(addr string, err error) error {
	fix := "pass an address of this machine, like --addr " + DefaultAddr
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		fix = "another program (perhaps another testctl sandbox) is listening there: stop it, or pass another port, like --addr 127.0.0.1:0 for a free one"
	case errors.Is(err, os.ErrPermission):
		fix = "ports below 1024 need privileges: pass a higher port, like --addr " + DefaultAddr
	}
	cause := err
	if op := (*net.OpError)(nil); errors.As(err, &op) {
		cause = op.Err // the address is named once, below
	}
	return &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf("the sandbox cannot listen on %s: %w\n%s", addr, cause, fix)}
}

func printBanner(w io.Writer, inst *sandbox.Instance, o *Options) {
	var b strings.Builder
	fmt.Fprintf(&b, "Sandbox serving the emulated service at %s\n\n", inst.BaseURL)
	row := func(k, v string) { fmt.Fprintf(&b, "  %-16s %s\n", k, v) }
	row("base URL", inst.BaseURL)
	row("legacy base URL", inst.LegacyBaseURL)
	row("project", sandbox.ProjectShortID+" (legacy UUID "+sandbox.ProjectUUID+")")
	row("project key", sandbox.ProjectKey)
	row("org key", sandbox.OrgKey+" (needs --project "+sandbox.ProjectShortID+")")
	row("limit key", sandbox.LimitKey+" (starting a run answers 402)")
	row("suspended key", sandbox.SuspendedKey+" (every call answers 403)")
	label := "plans"
	for plans := sandbox.PlanIDs(); len(plans) > 0; label = "" {
		n := min(3, len(plans))
		row(label, strings.Join(plans[:n], " "))
		plans = plans[n:]
	}
	row("runners", "runner-healthy runner-degraded runner-inactive runner-nostatus runner-warming")
	fmt.Fprintf(&b, "  %-16s speed %gx, fault rate %g, latency %s, history %d, seed %d\n",
		"settings", o.Speed, o.FaultRate, o.Latency, o.History, o.Seed)
	if host, _, _ := net.SplitHostPort(o.Addr); host != "localhost" && !net.ParseIP(host).IsLoopback() { // nil for a name: false
		fmt.Fprintf(&b, "\nWarning: %s is not a loopback address; anyone who can reach it can use the sandbox, whose keys are public.\n", o.Addr)
	}
	fmt.Fprintf(&b, "\nIn another shell:\n  export TESTCTL_BASE_URL=%s TESTCTL_LEGACY_BASE_URL=%s TESTCTL_API_KEY=%s\n",
		inst.BaseURL, inst.LegacyBaseURL, sandbox.ProjectKey)
	b.WriteString("  testctl run start --plan pln-passing_sandbox --wait\n\nPress Ctrl-C to stop.\n")
	_, _ = io.WriteString(w, b.String())
}
