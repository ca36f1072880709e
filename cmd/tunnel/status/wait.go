package status

import (
	"context"
	"fmt"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
)

// rank orders health so that "at least degraded" is a comparison.
func rank(health string) int {
	switch health {
	case api.TunnelHealthy:
		return 2
	case api.TunnelDegraded:
		return 1
	}
	return 0
}

// waitRun polls on the factory's clock until the tunnel is at least as
// healthy as asked, or the timeout passes. Progress goes to stderr, one
// line per change rather than per poll, so CI logs stay short; the final
// state goes to stdout like a plain status call.
func waitRun(ctx context.Context, opts *Options, out output.Options, client *api.Client) error {
	f := opts.Factory
	ios := f.IOStreams
	clk := f.Clock
	// The loop is the retry: the client's own backoff would only make
	// polls overshoot the deadline.
	client = client.WithRetries(0)
	deadline := clk.Now().Add(opts.Timeout)
	var last *api.TunnelStatus
	var lastErr error
	said := ""
	say := func(line string) {
		if line != said {
			fmt.Fprintln(ios.ErrOut, line)
			said = line
		}
	}
	for {
		st, err := client.GetTunnelStatus(ctx, opts.RunnerID)
		switch {
		case err == nil:
			last, lastErr = st, nil
			if rank(st.Status) >= rank(opts.WaitUntil) {
				if err := printStatus(f, out, opts.RunnerID, st); err != nil {
					return err
				}
				es := ios.ErrStyles()
				fmt.Fprintf(ios.ErrOut, "%s %s is %s\n", es.SuccessIcon(), termtext.SanitizeLine(opts.RunnerID), es.Status(termtext.SanitizeLine(st.Status)))
				return nil
			}
			say(fmt.Sprintf("%s is %s (%d connections); waiting until %s…",
				termtext.SanitizeLine(opts.RunnerID), termtext.SanitizeLine(st.Status), st.Connections, opts.WaitUntil))
		case api.IsTransient(err):
			lastErr = err
			say("could not read the tunnel's status, retrying: " + termtext.SanitizeLine(err.Error()))
		default:
			return err
		}
		remaining := deadline.Sub(clk.Now())
		if remaining <= 0 {
			break
		}
		if err := clk.Sleep(ctx, min(opts.Interval, remaining)); err != nil {
			return err
		}
	}
	if last == nil {
		// Never one answer: that is the service failing, not the tunnel.
		return fmt.Errorf("no status of %s could be read within %s: %w", opts.RunnerID, opts.Timeout, lastErr)
	}
	if err := printStatus(f, out, opts.RunnerID, last); err != nil {
		return err
	}
	return &cmdutil.ExitError{Code: cmdutil.ExitFailed, Err: fmt.Errorf(
		"tunnel %s did not become %s within %s: it is %s with %d connections",
		opts.RunnerID, opts.WaitUntil, opts.Timeout, last.Status, last.Connections)}
}
