package status

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/poll"
	"github.com/testctl/testctl/pkg/termtext"
)

// rank orders health so that "at least degraded" is a comparison; any
// other state ranks below both.
func rank(health string) int {
	return slices.Index([]string{api.TunnelDegraded, api.TunnelHealthy}, health)
}

// waitRun polls on the wait engine's loop until the tunnel is at least as
// healthy as asked, or the timeout passes: the same pacing and failure rules
// as `run wait` (backoff, Retry-After, a cap on failures in a row). Progress
// goes to stderr, one line per change rather than per poll, so CI logs stay
// short; the final state goes to stdout like a plain status call.
func waitRun(ctx context.Context, f *cmdutil.Factory, opts *Options, out output.Options, client *api.Client) error {
	ios := f.IOStreams
	client = client.WithRetries(0) // the loop is the retry
	var last *api.TunnelStatus
	var lastErr error
	said := ""
	say := func(line string) {
		if line != said {
			fmt.Fprintln(ios.ErrOut, line)
			said = line
		}
	}
	loop := &poll.Loop{Clock: f.Clock, Interval: opts.Interval, Timeout: opts.Timeout,
		Retrying: func(_ *poll.Target, err error) {
			say("could not read the tunnel's status, retrying: " + termtext.SanitizeLine(err.Error()))
		}}
	target := &poll.Target{Name: "tunnel " + opts.RunnerID, Poll: func(ctx context.Context) poll.Outcome {
		st, err := client.GetTunnelStatus(ctx, opts.RunnerID)
		if err != nil {
			lastErr = err
			return poll.Failed(err)
		}
		last, lastErr = st, nil
		if rank(st.Status) >= rank(opts.WaitUntil) {
			return poll.Outcome{Done: true}
		}
		say(fmt.Sprintf("%s is %s (%d connections); waiting until %s…",
			termtext.SanitizeLine(opts.RunnerID), termtext.SanitizeLine(st.Status), st.Connections, opts.WaitUntil))
		return poll.Outcome{}
	}}
	end, err := loop.Run(ctx, []*poll.Target{target})
	switch {
	case err != nil:
		return err
	case end == poll.Interrupted:
		return ctx.Err()
	case target.Err() != nil:
		return target.Err()
	case target.Done():
		if err := printStatus(f, out, opts.RunnerID, last); err != nil {
			return err
		}
		es := ios.ErrStyles()
		fmt.Fprintf(ios.ErrOut, "%s %s is %s\n", es.SuccessIcon(), termtext.SanitizeLine(opts.RunnerID), healthColor(es, last.Status)(termtext.SanitizeLine(last.Status)))
		return nil
	case last == nil:
		// Never one answer: that is the service failing, not the tunnel.
		if lastErr == nil || errors.Is(lastErr, context.DeadlineExceeded) {
			lastErr = errors.New("the service did not answer in time")
		}
		return &exitcode.Error{Code: exitcode.Service,
			Err: fmt.Errorf("no status of %s could be read within %s: %w", opts.RunnerID, opts.Timeout, lastErr)}
	}
	if err := printStatus(f, out, opts.RunnerID, last); err != nil {
		return err
	}
	return &exitcode.Error{Code: exitcode.Failed, Err: fmt.Errorf(
		"tunnel %s did not become %s within %s: it is %s with %d connections",
		opts.RunnerID, opts.WaitUntil, opts.Timeout, last.Status, last.Connections)}
}
