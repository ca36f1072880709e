package runwait

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/prcomment"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"github.com/testctl/testctl/pkg/verdict"
)

// historyTimeout bounds the look-up of each plan's recent runs for the
// HTML report.
const historyTimeout = 5 * time.Second

// historyRuns is how many of a plan's recent runs the HTML report shows.
const historyRuns = 20

// afterSignal is how long the work for the reports (the evidence, a run's
// name, the plan history) may go on after Ctrl-C or SIGTERM: GitHub
// Actions sends SIGTERM 7.5 s after its SIGINT, and SIGKILL 2.5 s later.
const afterSignal = time.Second

// Finish decides the verdict of the records and writes every report: the
// end of a wait, and the whole of `run report`. The evidence of the test
// cases that did not pass is gathered first (never changing the verdict),
// and, for --html, each plan's recent runs. After a signal that work is
// cut short: a wait a signal ended gathers no evidence, and one that comes
// while it gathers stops it within afterSignal (at once at the second
// signal); the reports are written with what is known, and the code is
// the signal's.
func Finish(ctx context.Context, d Deps, o Options, recs []verdict.Record) error {
	return finish(ctx, d, o, recs, nil, &report.Multiplexer{ErrOut: d.IO.ErrOut})
}

// finish is Finish with the evidence a wait read as the test cases ended
// (nil: none was) and the reporters that carried the wait (its views): the
// reports of the end join them, and the outcome is delivered to all, once.
func finish(ctx context.Context, d Deps, o Options, recs []verdict.Record, early *evidence.Reader, events *report.Multiplexer) error {
	if len(recs) == 0 {
		_ = events.End(report.Outcome{}) // the views stop; nothing else to say
		return &exitcode.Error{Code: exitcode.Service, Err: errors.New("there is no run to report on")}
	}
	o.warnExpired(d)
	if o.lookup == nil { // run report: no wait went before
		o.lookup = startBaseline(ctx, d.Client, o, targetsOf(recs))
	}
	// The work for the reports outlives the wait's context by afterSignal,
	// so they get what can be had quickly after a signal, and ends at once
	// with the second signal.
	work, done := cmdutil.Grace(ctx, afterSignal)
	defer done()
	// The run list (the runs' URLs and times), the evidence and the plans'
	// history are read all at once: none needs another, and each is a
	// round trip to the service.
	namePlans(recs)
	var describe func([]verdict.Record)
	var reads sync.WaitGroup
	// These reads are extras for the reports: one attempt each, so that a
	// service that made the wait give up is not retried, nor announced as
	// retried, once more after it.
	extras := d.Client.WithRetries(0)
	reads.Go(func() {
		describe = listRuns(work, extras, recs, o.JUnitFile != "" || o.HTMLFile != "" || d.Getenv("GITHUB_ACTIONS") == "true")
	})
	// The baseline search began with the wait (or just now, for run
	// report): its result joins the other reads.
	var found baselineResult
	reads.Go(func() {
		found = baselines(work, o, recs)
		found.complete(work, extras, o, recs)
	})
	v := verdict.Decide(recs, o.verdictOptions())
	var ev report.Evidence
	var left int
	var history map[string][]api.RunSummary
	if ctx.Err() == nil { // not needed once a signal ended the wait: the runs go on
		reads.Go(func() { ev, left = gatherEvidence(work, d.Client, early, v, o.Evidence) })
		if o.HTMLFile != "" {
			reads.Go(func() { history = planHistory(work, extras, v) })
		}
	}
	reads.Wait()
	describe(recs)
	vo := o.verdictOptions()
	vo.Now = d.Clock.Now()
	found.apply(&vo)
	v = verdict.Decide(recs, vo)
	d.Step.SetRuns(stepRuns(v.Runs))
	d.Step.SetFailures(v.Classified, v.Failures.New, v.Failures.Known)
	res := d.Resume
	res.Timeout = o.Timeout
	in := report.Input{IO: d.IO, Getenv: d.Getenv, Output: d.Output, JUnitFile: o.JUnitFile,
		HTMLFile: o.HTMLFile, CTRFFile: o.CTRFFile, Now: d.Clock.Now, Resume: res, NoData: d.NoData, Step: d.Step}
	if o.Comment {
		// Written after the code is settled: a first signal lets it finish
		// (within its own bound), a second ends it.
		comment, release := cmdutil.Grace(ctx, prcomment.DefaultTimeout)
		defer release()
		in.Comment = &report.CommentRequest{Ctx: comment, Env: prcomment.Env{Getenv: d.Getenv}}
		if d.Debug {
			in.Comment.Env.Debug = d.IO.ErrOut
		}
	}
	in.EndFiles = stepoutputs.FilesOf(d.Getenv, true)
	in.EndFiles.Dotenv, in.EndFiles.Warn = o.DotenvFile, d.IO.ErrOut
	in.EndFiles.Word = func(code int) string { return verdict.Word(code, false) }
	events.Add(report.Reporters(in)...)
	// A signal before the first report that states a code is the code;
	// one after it changes nothing: the reports are finished.
	events.Signal = func() int {
		if ctx.Err() != nil {
			return cmdutil.InterruptCode(ctx)
		}
		return 0
	}
	if d.Getenv("GITHUB_ACTIONS") == "true" {
		events.Annotate = func(msg string) { report.WriteErrorAnnotation(d.IO.WorkflowCommands(), "testctl report", msg) }
	}
	return events.End(report.Outcome{Verdict: v, Evidence: ev, EvidenceLeft: left, History: history})
}

// stepRuns are the runs of a CI step's outputs: those that started.
func stepRuns(runs []verdict.Run) []stepoutputs.Run {
	out := make([]stepoutputs.Run, 0, len(runs))
	for _, r := range runs {
		if !r.NotStarted {
			out = append(out, stepoutputs.Run{ShortID: r.ShortID, URL: r.URL})
		}
	}
	return out
}

// gatherEvidence reads the evidence of at most n test cases that did not
// pass, failures first across the runs, then the failed attempts of flaky
// ones, taking what early read as they ended. A verdict where everything
// passed asks nothing.
func gatherEvidence(ctx context.Context, c *api.Client, early *evidence.Reader, v verdict.Verdict, n int) (report.Evidence, int) {
	var failed, flaky []evidence.Target
	for _, r := range v.Runs {
		plan := r.Plan.Title()
		for _, cs := range r.DidNotPass() {
			failed = append(failed, evidence.TargetOf(cs.RunShortID, plan, cs.RunTestCase))
		}
		for _, cs := range r.Flaky() {
			flaky = append(flaky, evidence.TargetOf(cs.FailedRunShortID, plan, *cs.FirstFailure))
		}
	}
	targets, left := evidence.Limit(append(failed, flaky...), n)
	if len(targets) == 0 {
		return nil, left
	}
	if early == nil {
		early = evidence.NewReader(ctx, c, evidence.Options{})
		defer early.Close()
	}
	return report.NewEvidence(early.Gather(ctx, targets, knownIssues(v))), left
}

// knownIssues are the issues of the runs whose detail was read with them
// (run report asks for them with the run): the service sends a list, maybe
// empty, where it was asked, and nothing where it was not.
func knownIssues(v verdict.Verdict) map[string][]api.Issue {
	known := map[string][]api.Issue{}
	for _, r := range v.Runs {
		if r.Detail != nil && r.Detail.Issues != nil {
			known[r.ShortID] = r.Detail.Issues
		}
	}
	return known
}

// planHistory is the recent runs of each plan of the verdict, when the
// service lists them; a plan it cannot read has none.
func planHistory(ctx context.Context, c *api.Client, v verdict.Verdict) map[string][]api.RunSummary {
	ctx, cancel := context.WithTimeout(ctx, historyTimeout)
	defer cancel()
	out := map[string][]api.RunSummary{}
	for _, r := range v.Runs {
		p := r.Plan.ShortID
		if p == "" || out[p] != nil {
			continue
		}
		list, err := c.ListRuns(ctx, api.ListRunsOptions{TestPlanShortID: p, Limit: historyRuns})
		if err != nil {
			continue
		}
		out[p] = list.Runs
	}
	return out
}
