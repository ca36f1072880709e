package start

import (
	"context"
	"fmt"
	"strings"

	"github.com/testctl/testctl/cmd/run/shared"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/output"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/wait"
)

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
	shared.Announce(ios, resp.Run)
	if err := shared.PrintStarted(ios, out, o.Quiet, o.Wait, []*api.StartRunResponse{resp}); err != nil {
		return err
	}
	target := wait.StartedTarget(resp.Run, len(o.TestCaseIDs) > 0, f.Clock.Now())
	if err := wait.Started(f, client.BaseURL, []wait.RunTarget{target}); err != nil || !o.Wait {
		return err
	}
	return shared.WaitStarted(ctx, f, o.WaitOptions, o.Quiet, []wait.RunTarget{target})
}

// dryRun prints the request that would be sent.
func dryRun(o *Options, out output.Options, req api.StartRunRequest) error {
	client, err := o.Factory.PublicAPIClient()
	if err != nil {
		return err
	}
	if req.ProjectShortID == "" {
		req.ProjectShortID = client.ProjectShortID // as StartRun would
	}
	return shared.PrintDryRun(o.Factory, out, "/v1/run", req)
}

func describeMeta(req api.StartRunRequest) string {
	commit := req.CommitHash
	if len(commit) > 12 {
		commit = commit[:12]
	}
	subject, _, _ := strings.Cut(req.CommitMessage, "\n")
	return fmt.Sprintf("%s on %s in %s by %s (%q)", commit, req.Branch, req.Repository, req.Actor, subject)
}
