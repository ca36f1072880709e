package runwait

// What the run verbs that create runs have in common: `run start` and `run
// rerun` print a request they would send, announce the runs they started
// (and where runs started under --sandbox went), print them on stdout and
// wait for them the same way.

import (
	"context"
	"fmt"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"net/http"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/reconcile"
	"github.com/testctl/testctl/pkg/shellwords"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// Announce tells stderr that a run exists, with its short id and URL, as
// soon as it does: a CI log then always shows how to find it, whatever
// happens next.
func Announce(ios *iostreams.IOStreams, run api.StartedRun) {
	fmt.Fprintf(ios.ErrOut, "%s Started run %s (%s): %s\n", ios.ErrStyles().SuccessIcon(),
		termtext.SanitizeLine(run.ShortID), termtext.Plural(run.TestCount, "test"), termtext.SanitizeLine(run.URL))
}

// PrintStarted prints the runs started on stdout: with -q one short id a
// line; with --wait nothing (the wait prints the runs once they ended);
// with -o json or yaml the service's answer (an array for several runs);
// otherwise a table of short ids and URLs. On a terminal, where Announce
// has just shown the same ids and URLs on the same screen, the table gives
// way to the next step instead, with the flags that chose the service (as
// the resume hint of a wait carries them), so the line copied reaches the
// same one.
func PrintStarted(f *cmdutil.Factory, out output.Options, quiet, waiting bool, resps []*api.StartRunResponse) error {
	ios := f.IOStreams
	switch {
	case quiet:
		for _, r := range resps {
			fmt.Fprintln(ios.Out, termtext.SanitizeLine(r.Run.ShortID))
		}
		return nil
	case waiting:
		return nil
	case out.IsStructured():
		var doc any = resps
		if len(resps) == 1 {
			doc = resps[0]
		}
		if err := output.Print(ios.Out, out, doc); err != nil || out.Beside == nil {
			return err
		}
		ios = output.BesideStreams(out)
	case ios.IsStdoutTTY() && ios.IsStderrTTY():
		ids := make([]string, len(resps))
		for i, r := range resps {
			ids[i] = termtext.SanitizeLine(r.Run.ShortID)
		}
		if f.Globals != nil && f.Globals.Sandbox {
			return nil // NoteSandboxRuns says what to do instead
		}
		fmt.Fprintf(ios.ErrOut, "  wait with: %s\n", shellwords.WaitCommand(f.Globals.ServiceArgs(), ids))
		return nil
	}
	t := output.NewTable(ios)
	for _, r := range resps {
		t.AddField(r.Run.ShortID, output.WithColor(ios.Styles().Bold))
		t.AddField(r.Run.URL)
		t.EndRow()
	}
	return t.Render()
}

// WaitStarted waits for runs just started, as `run wait` does. With -q
// stdout keeps only the short ids already printed: the verdict is the exit
// code, and progress and the summary still go to stderr.
func WaitStarted(ctx context.Context, f *cmdutil.Factory, o Options, quiet bool, targets []RunTarget, notStarted ...verdict.Record) error {
	d, err := WaitDeps(ctx, f)
	if err != nil {
		return err
	}
	d.NoData = quiet
	return Runs(ctx, d, o, targets, notStarted...)
}

// WaitDeps is what a wait takes from the factory: the streams, the client
// and its clock, the output format, the flags that chose the service (for
// the resume hint), and the reruns of --retry-failed, reconciled as `run
// rerun` does so that a rerun whose answer was lost is adopted, never
// doubled.
func WaitDeps(ctx context.Context, f *cmdutil.Factory) (Deps, error) {
	out, client, err := f.OutputAndClient()
	if err != nil {
		return Deps{}, err
	}
	rec, err := reconcile.ForCommand(f, client)
	if err != nil {
		return Deps{}, err
	}
	d := Deps{IO: f.IOStreams, Client: client, Clock: f.Clock, Getenv: f.Getenv, Output: out,
		Debug: (f.Globals != nil && f.Globals.Debug) || f.Getenv("TESTCTL_DEBUG") == "1", Step: stepoutputs.FromContext(ctx),
		Rerun: func(ctx context.Context, shortID string, req api.RerunRequest) (*api.StartRunResponse, error) {
			return reconcile.Rerun(ctx, rec, client, shortID, req)
		}}
	if f.Globals != nil {
		d.Resume.Args, d.Resume.Sandbox = f.Globals.ServiceArgs(), f.Globals.Sandbox
	}
	d.Resume.Steps = nextstep.From(ctx)
	return d, nil
}

// PrintDryRun prints the POSTs that would be sent to path, one per body that
// bodies gives for the configured project, as every --dry-run does
// (output.PrintDryRun). It needs a base URL for the address but no key:
// checking a CI step's flags must not need a secret.
func PrintDryRun(f *cmdutil.Factory, out output.Options, path string, bodiesFor func(project string) []any) error {
	client, err := f.PublicAPIClient()
	if err != nil {
		return err
	}
	bodies := bodiesFor(client.ProjectShortID)
	reqs := make([]output.DryRun, len(bodies))
	for i, body := range bodies {
		reqs[i] = output.DryRun{Method: http.MethodPost, URL: strings.TrimRight(client.BaseURL, "/") + path, Body: body}
	}
	return output.PrintDryRun(f.IOStreams, out, reqs...)
}
