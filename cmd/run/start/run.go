package start

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/wait"
)

// DryRunRequest is what --dry-run prints with -o json or yaml.
type DryRunRequest struct {
	Method string              `json:"method"`
	URL    string              `json:"url"`
	Body   api.StartRunRequest `json:"body"`
}

func startRun(ctx context.Context, o *Options) error {
	f := o.Factory
	ios := f.IOStreams
	out, err := f.Output()
	if err != nil {
		return err
	}
	req, source, err := buildRequest(ctx, o)
	if err != nil {
		return err
	}
	if source != "" {
		fmt.Fprintf(ios.ErrOut, "Code-host metadata from %s: %s\n", source, termtext.SanitizeLine(describeMeta(req)))
	}
	if o.DryRun {
		return dryRun(o, out, req)
	}
	client, err := f.APIClient()
	if err != nil {
		return err
	}
	// One call: pkg/api repeats a POST only when it surely never arrived.
	resp, err := client.StartRun(ctx, req)
	if err != nil {
		return err
	}
	run := resp.Run
	fmt.Fprintf(ios.ErrOut, "%s Started run %s (%s): %s\n", ios.ErrStyles().SuccessIcon(),
		termtext.SanitizeLine(run.ShortID), plural(run.TestCount, "test"), termtext.SanitizeLine(run.URL))

	switch {
	case o.Quiet:
		fmt.Fprintln(ios.Out, termtext.SanitizeLine(run.ShortID))
	case o.Wait:
		// run wait prints the data once the run has ended.
	case out.IsStructured():
		if err := output.Print(ios.Out, out, resp); err != nil {
			return err
		}
	default:
		t := output.NewTable(ios)
		t.AddField(run.ShortID, output.WithColor(ios.Styles().Bold))
		t.AddField(run.URL)
		if err := t.Render(); err != nil {
			return err
		}
	}
	target := wait.StartedTarget(run, len(o.TestCaseIDs) > 0, f.Clock.Now())
	if err := wait.Started(f, client.BaseURL, []wait.RunTarget{target}); err != nil || !o.Wait {
		return err
	}
	if o.Quiet {
		// -q promises only the short id on stdout; the verdict is the exit
		// code, and progress and the summary still go to stderr.
		saved := ios.Out
		ios.Out = io.Discard
		defer func() { ios.Out = saved }()
	}
	return wait.Runs(ctx, f, o.WaitOptions, []wait.RunTarget{target})
}

// dryRun prints the request that would be sent. It needs a base URL for
// the address but no key: checking a CI step's flags must not need a secret.
func dryRun(o *Options, out output.Options, req api.StartRunRequest) error {
	f := o.Factory
	client, err := f.PublicAPIClient()
	if err != nil {
		return err
	}
	if req.ProjectShortID == "" {
		req.ProjectShortID = client.ProjectShortID // as StartRun would
	}
	d := DryRunRequest{Method: "POST", URL: strings.TrimRight(client.BaseURL, "/") + "/v1/run", Body: req}
	ios := f.IOStreams
	if out.IsStructured() {
		return output.Print(ios.Out, out, d)
	}
	fmt.Fprintf(ios.Out, "%s %s\n", d.Method, d.URL)
	if err := output.Print(ios.Out, output.Options{Format: output.FormatJSON}, d.Body); err != nil {
		return err
	}
	fmt.Fprintln(ios.ErrOut, "Dry run: nothing was sent.")
	return nil
}

func describeMeta(req api.StartRunRequest) string {
	commit := req.CommitHash
	if len(commit) > 12 {
		commit = commit[:12]
	}
	subject, _, _ := strings.Cut(req.CommitMessage, "\n")
	return fmt.Sprintf("%s on %s in %s by %s (%q)", commit, req.Branch, req.Repository, req.Actor, subject)
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
