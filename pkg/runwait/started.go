package runwait

import (
	"fmt"
	"io"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/startedruns"
	"github.com/testctl/testctl/pkg/stepoutputs"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// StartedTarget is the run a start answer describes, ready to wait for.
func StartedTarget(run api.StartedRun, testCaseRun bool, now time.Time) RunTarget {
	t := RunTarget{ShortID: run.ShortID, URL: run.URL, CreatedAt: now, Plan: verdict.Plan{TestCases: testCaseRun}}
	if run.TestPlan != nil {
		t.Plan.Name, t.Plan.ShortID = run.TestPlan.Name, run.TestPlan.ShortID
	}
	return t
}

// Started is told of runs as soon as they exist: it keeps them in the local
// record (for a later `run wait`, which names their reports from it) and,
// when the command will not wait for them, writes run_short_id, run_url
// and runs_json to $GITHUB_OUTPUT in GitHub Actions, so that "start now,
// wait later" works; a command that waits writes its outputs once, at the
// end. step notes them for the outputs written at the command's end
// (exit-code, the dotenv report). An output file that cannot be written is
// exit 8; the local record is a convenience and only warns.
func Started(stderr io.Writer, getenv func(string) string, step *stepoutputs.Step, service string, runs []RunTarget, waiting bool) error {
	entries := make([]startedruns.Run, 0, len(runs))
	recs := make([]verdict.Record, 0, len(runs))
	for _, t := range runs {
		entries = append(entries, startedruns.Run{Service: service, ShortID: t.ShortID, URL: t.URL, PlanName: t.Plan.Name,
			PlanShortID: t.Plan.ShortID, TestCaseRun: t.Plan.TestCases, CreatedAt: t.CreatedAt})
		recs = append(recs, verdict.Record{ShortID: t.ShortID, URL: t.URL, Plan: t.Plan})
	}
	noted := make([]stepoutputs.Run, 0, len(runs))
	for _, t := range runs {
		noted = append(noted, stepoutputs.Run{ShortID: t.ShortID, URL: t.URL})
	}
	step.SetRuns(noted)
	if err := startedruns.ForEnv(getenv).Add(entries...); err != nil {
		fmt.Fprintf(stderr, "warning: could not note the run for a later `run wait`: %s\n", termtext.Sanitize(err.Error()))
	}
	if waiting || getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	if err := report.AppendStartOutputs(getenv("GITHUB_OUTPUT"), recs); err != nil {
		return &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf("GitHub Actions: writing the step outputs: %w", err)}
	}
	return nil
}

// KnownTargets are the runs to wait for, with what the local record knows
// of those this machine started on service: their URL, plan and creation
// time. Only those get the not-yet-visible grace; any other id's 404 is
// final.
func KnownTargets(getenv func(string) string, service string, ids []string) []RunTarget {
	rec := startedruns.ForEnv(getenv)
	out := make([]RunTarget, 0, len(ids))
	for _, id := range ids {
		t := RunTarget{ShortID: id}
		if run, ok := rec.Find(service, id); ok {
			t.URL, t.CreatedAt = run.URL, run.CreatedAt
			t.Plan = verdict.Plan{Name: run.PlanName, ShortID: run.PlanShortID, TestCases: run.TestCaseRun}
		}
		out = append(out, t)
	}
	return out
}
