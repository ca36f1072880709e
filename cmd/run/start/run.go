package start

import (
	"context"
	"errors"
	"fmt"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"strings"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/reconcile"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/runwait"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

func startRun(ctx context.Context, f *cmdutil.Factory, o *Options) error {
	ios := f.IOStreams
	out, err := f.Output()
	if err != nil {
		return err
	}
	req, note, err := buildRequest(ctx, f, o)
	if err != nil {
		for _, problem := range report.WriteStartRefused(f.Getenv, ios.WorkflowCommands(), "run start", err) {
			fmt.Fprintf(ios.ErrOut, "error: GitHub Actions: %s\n", termtext.Sanitize(problem))
		}
		return err
	}
	if note.Source != "" {
		fmt.Fprintf(ios.ErrOut, "Code-host metadata from %s: %s\n", note.Source, termtext.SanitizeLine(describeMeta(req)))
	}
	if len(note.fellBack) > 0 {
		title, msg := note.fallbackWarning()
		fmt.Fprintf(ios.ErrOut, "warning: %s\n", termtext.SanitizeLine(msg))
		// On the workflow run's page too, where a CI user looks.
		report.WriteWarningAnnotation(f.Getenv, ios.WorkflowCommands(), title, msg)
	}
	if ctx, err = o.prepareApps(ctx, f, &req); err != nil {
		return err
	}
	reqs := requests(req, o.Plans)
	if o.DryRun {
		return runwait.PrintDryRun(f, out, "/v1/run", func(project string) []any {
			bodies := make([]any, len(reqs))
			for i, req := range reqs {
				req.ProjectShortID = project // as StartRun would
				bodies[i] = concealed(req)
			}
			return bodies
		})
	}
	client, err := f.APIClient()
	if err != nil {
		return err
	}
	several := len(reqs) > 1
	rec, err := reconcile.ForCommand(f, client)
	if err != nil {
		return err
	}
	if o.Wait && len(o.Plans) > 0 {
		// The baseline search goes on while the runs start and run.
		o.WaitOptions.StartBaseline(ctx, client, o.Plans)
	}
	startNew := func(ctx context.Context, req api.StartRunRequest) (*api.StartRunResponse, error) {
		resp, err := reconcile.StartRun(ctx, rec, client, req)
		return resp, withPlanHint(f, nextstep.From(ctx), req, cmdutil.SignalError(ctx, err))
	}
	startOne := func(ctx context.Context, req api.StartRunRequest) (*api.StartRunResponse, *takenUp, error) {
		resp, err := startNew(ctx, req)
		return resp, nil, err
	}
	if job := ciRetryJob(ctx, f, o, req); job != nil {
		startOne = func(ctx context.Context, req api.StartRunRequest) (*api.StartRunResponse, *takenUp, error) {
			return takeUpOrStart(ctx, job, client, rec, req, startNew)
		}
	}
	results := startAll(ctx, reqs, startOne, func(s started) {
		switch {
		case s.taken != nil:
			announceTakenUp(ios, s)
			if s.err != nil && several && !o.Wait {
				fmt.Fprintln(ios.ErrOut, startFailureLine(s))
			}
		case s.err == nil:
			runwait.Announce(ios, s.resp.Run)
		case several && !o.Wait:
			// With --wait the failure story says it, once, with its hint.
			fmt.Fprintln(ios.ErrOut, startFailureLine(s))
		}
	})
	// A wait was asked for: its reports say the start failed (the failure
	// story, JUnit, the step summary, outputs), as they do when one plan of
	// several fails.
	if !several && results[0].err != nil && !o.Wait {
		return results[0].err
	}
	var resps []*api.StartRunResponse
	var targets []runwait.RunTarget
	// The starts that failed are part of the verdict and reported with
	// the runs (the summary, JUnit, the step summary), where a CI log or
	// dashboard is read, even when no run started at all.
	var notStarted []verdict.Record
	startCode := 0
	for _, s := range results {
		if s.err != nil {
			rec := verdict.NotStartedRecord(verdict.Plan{ShortID: s.req.TestPlanShortID, TestCases: len(s.req.TestCaseIDs) > 0}, s.err)
			if maybe, ok := errors.AsType[*reconcile.MaybeCreatedError](s.err); ok {
				rec.MaybeStarted, rec.Look = true, maybe.Where
			}
			notStarted = append(notStarted, rec)
			startCode = max(startCode, exitcode.Of(s.err))
			continue
		}
		resps = append(resps, s.resp)
		created := s.taken == nil || s.taken.dec.Action == verdict.CINew || s.taken.dec.Action == verdict.CIRerunFailed
		targets = append(targets, ciTarget(runwait.StartedTarget(s.resp.Run, len(o.TestCaseIDs) > 0, f.Clock.Now()), s.taken, created))
	}
	stepoutputs.FromContext(ctx).SetCIRetry(ciRetryOutput(results))
	if len(resps) > 0 {
		if err := runwait.PrintStarted(f, out, o.Quiet, o.Wait, resps); err != nil {
			return err
		}
		if err := runwait.Started(ios.ErrOut, f.Getenv, stepoutputs.FromContext(ctx), client.BaseURL, targets, o.Wait); err != nil {
			return withStartFailure(err, startCode)
		}
	}
	ids := make([]string, len(resps))
	for i, r := range resps {
		ids[i] = r.Run.ShortID
	}
	if !o.Wait {
		runwait.NoteSandboxRuns(f, ids, o.again(resps), false, false)
		return withStartFailure(nil, startCode)
	}
	werr := runwait.WaitStarted(ctx, f, o.WaitOptions, o.Quiet, targets, notStarted...)
	// A verdict other than a pass printed commands to look further.
	runwait.NoteSandboxRuns(f, ids, o.again(resps)+" --wait", true, werr != nil)
	return werr
}

// again is a start like this one, of a plan that did start and with the
// same other flags, for the note that shows how to keep runs in a served
// sandbox.
func (o *Options) again(resps []*api.StartRunResponse) string {
	words := []string{"testctl run start --test-case", strings.Join(o.TestCaseIDs, ",")}
	if len(o.Plans) > 0 {
		plan := o.Plans[0]
		if len(resps) > 0 && resps[0].Run.TestPlan != nil && resps[0].Run.TestPlan.ShortID != "" {
			plan = resps[0].Run.TestPlan.ShortID
		}
		words = []string{"testctl run start --plan", plan}
	}
	return strings.Join(append(words, o.againFlags...), " ")
}

// describeMeta is the metadata sent, in a line; a field not found is left
// out (the start then fell back to trigger API, and a warning names it).
func describeMeta(req api.StartRunRequest) string {
	commit := req.CommitHash
	if len(commit) > 12 {
		commit = commit[:12]
	}
	parts := []string{commit}
	for _, p := range [][2]string{{"on ", req.Branch}, {"in ", req.Repository}, {"by ", req.Actor}} {
		if p[1] != "" {
			parts = append(parts, p[0]+p[1])
		}
	}
	if subject, _, _ := strings.Cut(req.CommitMessage, "\n"); subject != "" {
		parts = append(parts, fmt.Sprintf("(%q)", subject))
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}
