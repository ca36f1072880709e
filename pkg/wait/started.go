package wait

import (
	"bytes"
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/startedruns"
	"github.com/testctl/testctl/pkg/termtext"
)

// StartedTarget is the run a start answer describes, ready to wait for.
func StartedTarget(run api.StartedRun, testCaseRun bool, now time.Time) RunTarget {
	t := RunTarget{ShortID: run.ShortID, URL: run.URL, CreatedAt: now, Plan: Plan{TestCases: testCaseRun}}
	if run.TestPlan != nil {
		t.Plan.Name, t.Plan.ShortID = run.TestPlan.Name, run.TestPlan.ShortID
	}
	return t
}

// Started is told of runs as soon as they exist, before any wait: it keeps
// them in the local record (for a later `run wait`) and, in GitHub Actions,
// writes run_short_id and run_url to $GITHUB_OUTPUT, so that "start now,
// wait later" works. An output file that cannot be written is exit 8; the
// local record is a convenience and only warns.
func Started(f *cmdutil.Factory, service string, runs []RunTarget) error {
	entries := make([]startedruns.Run, 0, len(runs))
	recs := make([]Record, 0, len(runs))
	for _, t := range runs {
		entries = append(entries, startedruns.Run{Service: service, ShortID: t.ShortID, URL: t.URL, PlanName: t.Plan.Name,
			PlanShortID: t.Plan.ShortID, TestCaseRun: t.Plan.TestCases, CreatedAt: t.CreatedAt})
		recs = append(recs, Record{ShortID: t.ShortID, URL: t.URL, Plan: t.Plan})
	}
	if err := startedruns.ForEnv(f.Getenv).Add(entries...); err != nil {
		fmt.Fprintf(f.IOStreams.ErrOut, "warning: could not note the run for a later `run wait`: %s\n", termtext.Sanitize(err.Error()))
	}
	path := f.Getenv("GITHUB_OUTPUT")
	if f.Getenv("GITHUB_ACTIONS") != "true" || path == "" {
		return nil
	}
	var b bytes.Buffer
	err := WriteOutputs(&b, recs)
	if err == nil {
		err = appendFile(path, b.Bytes())
	}
	if err != nil {
		return &cmdutil.ExitError{Code: cmdutil.ExitLocal, Err: fmt.Errorf("GitHub Actions: writing the step outputs: %w", err)}
	}
	return nil
}

// KnownTargets are the runs to wait for, with what the local record knows
// of those this machine started on service: their URL, plan and creation
// time. Only those get the not-yet-visible grace; any other id's 404 is
// final.
func KnownTargets(f *cmdutil.Factory, service string, ids []string) []RunTarget {
	rec := startedruns.ForEnv(f.Getenv)
	out := make([]RunTarget, 0, len(ids))
	for _, id := range ids {
		t := RunTarget{ShortID: id}
		if run, ok := rec.Find(service, id); ok {
			t.URL, t.CreatedAt = run.URL, run.CreatedAt
			t.Plan = Plan{Name: run.PlanName, ShortID: run.PlanShortID, TestCases: run.TestCaseRun}
		}
		out = append(out, t)
	}
	return out
}
