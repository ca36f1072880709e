package start

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/ciretry"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/reconcile"
	"github.com/testctl/testctl/pkg/runwait"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// takenUp is what a retried CI job did for one start: took up the run its
// earlier attempt started (reused, rerun its failures, waited on), or
// started anew, and why.
type takenUp struct {
	dec ciretry.Decision
	// rerun is, for a rerun of the earlier run's failures, what it reruns
	// in words ("the 2 failed test cases").
	rerun string
}

// ciRetryJob is the retried CI job whose earlier runs the starts take up
// (--ci-retry failed, the default), nil when the job is no retry, the
// request names no commit (a retry is recognised by it) or --ci-retry all.
func ciRetryJob(ctx context.Context, f *cmdutil.Factory, o *Options, req api.StartRunRequest) *ciretry.Job {
	if o.CIRetry == ciretry.All || req.CommitHash == "" {
		return nil
	}
	job := ciretry.Detect(ctx, ciretry.Env{Getenv: f.Getenv, Now: f.Clock.Now()})
	if job == nil {
		return nil
	}
	if line := job.Announce(o.CIRetry); line != "" {
		fmt.Fprintln(f.IOStreams.ErrOut, termtext.SanitizeLine(line))
	}
	return job
}

// takeUpOrStart takes up the run the earlier attempt started for req, as
// the decision says, or starts anew with start.
func takeUpOrStart(ctx context.Context, job *ciretry.Job, client *api.Client, rec reconcile.Reconciler, req api.StartRunRequest,
	start func(context.Context, api.StartRunRequest) (*api.StartRunResponse, error)) (*api.StartRunResponse, *takenUp, error) {
	t := &takenUp{dec: job.Decide(ctx, client, req)}
	if ctx.Err() != nil {
		// A signal while the earlier runs were read: nothing was sent,
		// nothing is said to start anew.
		return nil, nil, cmdutil.SignalError(ctx, ctx.Err())
	}
	switch t.dec.Action {
	case verdict.CIReused, verdict.CIWaited:
		return takenUpAnswer(t.dec.Last(), req, t.dec.Action), t, nil
	case verdict.CIRerunFailed:
		last := t.dec.Last()
		rr, what, ok := runwait.RerunOfFailures(ctx, client, last.Detail)
		if !ok {
			t.dec = ciretry.Decision{Action: verdict.CINew, Why: fmt.Sprintf("run %s failed, but none of its test cases did", termtext.SanitizeLine(last.ShortID))}
			break
		}
		t.rerun = what
		resp, err := reconcile.Rerun(ctx, rec, client, last.ShortID, rr)
		return resp, t, cmdutil.SignalError(ctx, err)
	}
	resp, err := start(ctx, req)
	return resp, t, err
}

// takenUpAnswer is the start answer of a run taken up, holding only what
// is known of it: -o json invents nothing, and says it was taken up.
func takenUpAnswer(a verdict.Attempt, req api.StartRunRequest, action string) *api.StartRunResponse {
	run := api.StartedRun{ShortID: a.ShortID, URL: a.URL, TestCount: len(a.Detail.RunTestCases)}
	doc := map[string]any{"shortId": a.ShortID, "url": a.URL, "testCount": run.TestCount, "ciRetry": action}
	if req.TestPlanShortID != "" {
		run.TestPlan = &api.TestPlan{ShortID: req.TestPlanShortID}
		doc["testPlan"] = map[string]string{"shortId": req.TestPlanShortID}
	}
	resp := &api.StartRunResponse{Run: run}
	raw, _ := json.Marshal(map[string]any{"run": doc}) // strings and numbers always encode
	resp.SetRawJSON(raw)
	return resp
}

// announceTakenUp says on stderr what the retry did for one start, as soon
// as it is known: the run reused or waited on, the rerun started, or why
// it started anew.
func announceTakenUp(ios *iostreams.IOStreams, s started) {
	t, st := s.taken, ios.ErrStyles()
	if t == nil {
		return
	}
	by := "an earlier attempt"
	if t.dec.Attempt > 0 {
		by = fmt.Sprintf("attempt %d", t.dec.Attempt)
	}
	switch t.dec.Action {
	case verdict.CIReused:
		last := t.dec.Last()
		fmt.Fprintf(ios.ErrOut, "%s %s passed in run %s, started by %s: not run again: %s\n", st.SuccessIcon(), capital(describeStart(s.req)),
			termtext.SanitizeLine(last.ShortID), by, termtext.SanitizeLine(last.URL))
	case verdict.CIWaited:
		last := t.dec.Last()
		fmt.Fprintf(ios.ErrOut, "Run %s of %s, started by %s, is still %s: waiting on it, not starting it again: %s\n",
			termtext.SanitizeLine(last.ShortID), describeStart(s.req), by, termtext.SanitizeLine(last.Detail.Status), termtext.SanitizeLine(last.URL))
	case verdict.CIRerunFailed:
		if s.err == nil {
			fmt.Fprintf(ios.ErrOut, "%s Rerunning %s of run %s (started by %s) as run %s: %s\n", st.SuccessIcon(), t.rerun,
				termtext.SanitizeLine(t.dec.Last().ShortID), by, termtext.SanitizeLine(s.resp.Run.ShortID), termtext.SanitizeLine(s.resp.Run.URL))
		}
	default:
		if t.dec.Why != "" {
			fmt.Fprintf(ios.ErrOut, "%s: starting anew\n", termtext.SanitizeLine(t.dec.Why))
		}
		if s.err == nil {
			runwait.Announce(ios, s.resp.Run)
		}
	}
}

// ciTarget is the run to wait on for a start a retried CI job took up:
// the earlier attempt's runs are its earlier attempts.
func ciTarget(t runwait.RunTarget, taken *takenUp, createdNow bool) runwait.RunTarget {
	if taken == nil || (taken.dec.Action == verdict.CINew && taken.dec.Why == "") {
		return t
	}
	chain := taken.dec.Chain
	t.CIRetry = taken.dec.CIRetry(len(chain))
	switch taken.dec.Action {
	case verdict.CIRerunFailed:
		t.Earlier = chain
	case verdict.CIReused, verdict.CIWaited:
		t.Earlier = chain[:len(chain)-1]
	}
	if !createdNow {
		t.CreatedAt = time.Time{} // not created now: a 404 is final
	}
	return t
}

// ciRetryOutput is the step output ci-retry: what the retry did for each
// start, with the run it used ("reused:r0a1b2"), comma-separated: a
// value with no space, the same in the dotenv report.
func ciRetryOutput(results []started) string {
	var parts []string
	for _, s := range results {
		action := verdict.CINew
		if s.taken != nil {
			action = s.taken.dec.Action
		}
		part := action
		if s.err == nil && s.resp != nil {
			part += ":" + termtext.SanitizeLine(s.resp.Run.ShortID)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ",")
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
