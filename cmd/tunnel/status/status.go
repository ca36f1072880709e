// Package status implements `testctl tunnel status`.
package status

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/flagcheck"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
)

// Defaults of --wait-until: a tunnel comes up in seconds, so minutes are a
// generous bound for a CI step, and polling every few seconds is cheap.
const (
	DefaultTimeout  = 5 * time.Minute
	DefaultInterval = 5 * time.Second
)

// Options are the inputs of `tunnel status`.
type Options struct {
	RunnerID  string
	WaitUntil string // "", healthy or degraded
	Timeout   time.Duration
	Interval  time.Duration
}

// NewCmdStatus builds `tunnel status RUNNER_ID`.
func NewCmdStatus(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   "status RUNNER_ID",
		Short: "Show a tunnel's health, or wait until it is healthy",
		Long: `Show a remote tunnel's health (inactive, degraded or healthy), its number of
edge connections and its public hostnames.

--wait-until polls until the tunnel is at least that healthy (a healthy tunnel
satisfies degraded) and exits 0, or exits 1 when --timeout passes first, so a
CI step can wait for its tunnel before starting a run. It polls like run wait:
brief failures of the service or the network (5xx, 429, timeouts, dropped
connections) never end the wait before --timeout, as requests are retried
with backoff honouring Retry-After; 10 failures in a row end it (exit 6).`,
		Example: `  testctl tunnel status runner-ci-42
  testctl tunnel status runner-ci-42 -o json --jq .connections

  # Gate a CI step on the tunnel, then start the run
  testctl tunnel status runner-ci-42 --wait-until healthy --timeout 2m &&
    testctl run start --plan pln-smoke_a1b2 --wait`,
		Args: cmdutil.ExactArgs(1, "a runner id", "testctl tunnel status runner-ci-42"),
		PreRunE: func(cmd *cobra.Command, args []string) error {
			return opts.parse(cmd, args[0], f.BaseURL)
		},
		RunE: cmdutil.RunE(f, opts, runF, statusRun),
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.WaitUntil, "wait-until", "", "poll until the tunnel is healthy, or at least degraded")
	fl.DurationVar(&opts.Timeout, "timeout", DefaultTimeout, "with --wait-until: give up after this long (exit 1)")
	fl.DurationVar(&opts.Interval, "interval", DefaultInterval, "with --wait-until: time between two polls (at least 1s unless the service is on loopback)")
	_ = cmd.RegisterFlagCompletionFunc("wait-until", cobra.FixedCompletions([]string{
		"healthy\t4 or more connections", "degraded\tat least 1 connection"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *Options) parse(cmd *cobra.Command, runnerID string, baseURLOf func() (string, error)) error {
	o.RunnerID = strings.TrimSpace(runnerID)
	if strings.ContainsFunc(o.RunnerID, func(r rune) bool { return r <= ' ' || r == 0x7f }) || api.CheckID("", o.RunnerID) != nil {
		return exitcode.FlagErrorf("%q is not a runner id", runnerID)
	}
	fl := cmd.Flags()
	if o.WaitUntil == "" {
		for _, name := range []string{"timeout", "interval"} {
			if fl.Changed(name) {
				return exitcode.FlagErrorf("--%s applies only with --wait-until", name)
			}
		}
		if fl.Changed("wait-until") {
			return exitcode.FlagErrorf("--wait-until must be healthy or degraded")
		}
		return nil
	}
	if o.WaitUntil = strings.ToLower(o.WaitUntil); o.WaitUntil != api.TunnelHealthy && o.WaitUntil != api.TunnelDegraded {
		return exitcode.FlagErrorf("--wait-until must be healthy or degraded, not %q", o.WaitUntil)
	}
	if err := cmp.Or(flagcheck.ValidatePositiveDuration("timeout", o.Timeout),
		flagcheck.ValidatePositiveDuration("interval", o.Interval)); err != nil {
		return err // the first of the two
	}
	baseURL, err := baseURLOf()
	if err != nil {
		return err
	}
	return flagcheck.ValidateInterval("interval", o.Interval, baseURL)
}

func statusRun(ctx context.Context, f *cmdutil.Factory, opts *Options) error {
	out, client, err := f.OutputAndClient()
	if err != nil {
		return err
	}
	if opts.WaitUntil != "" {
		return waitRun(ctx, f, opts, out, client)
	}
	st, err := client.GetTunnelStatus(ctx, opts.RunnerID)
	if err != nil {
		return err
	}
	return printStatus(f, out, opts.RunnerID, st)
}

// printStatus writes the tunnel's state: the service's document for
// programs, aligned fields for people.
func printStatus(f *cmdutil.Factory, out output.Options, runnerID string, st *api.TunnelStatus) error {
	ios := f.IOStreams
	if out.IsStructured() {
		if err := output.Print(ios.Out, out, st); err != nil || out.Beside == nil {
			return err
		}
		ios = output.BesideStreams(out)
	}
	s := ios.Styles()
	var b strings.Builder
	fmt.Fprintf(&b, "Runner:       %s\n", termtext.SanitizeLine(runnerID))
	fmt.Fprintf(&b, "Health:       %s\n", healthColor(s, st.Status)(termtext.SanitizeLine(st.Status)))
	fmt.Fprintf(&b, "Connections:  %d\n", st.Connections)
	if len(st.Hostnames) == 0 {
		fmt.Fprintf(&b, "Hostnames:    %s\n", s.Muted("none"))
	}
	label := "Hostnames:    "
	for _, h := range st.Hostnames {
		fmt.Fprintf(&b, "%sport %d → %s\n", label, h.LocalPort, termtext.SanitizeLine(h.URL))
		label = strings.Repeat(" ", len(label))
	}
	_, err := fmt.Fprint(ios.Out, b.String())
	return err
}

// healthColor is the colour of a tunnel's health: healthy green, inactive
// red, degraded yellow.
func healthColor(s *iostreams.Styles, health string) func(string) string {
	switch strings.ToLower(health) {
	case "healthy":
		return s.Success
	case "inactive":
		return s.Failure
	case "degraded":
		return s.Warning
	}
	return func(h string) string { return h }
}
