package report

import (
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/htmlreport"
	"github.com/testctl/testctl/pkg/shellwords"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteHTMLFile writes the one HTML report of the verdict's runs to path,
// atomically: whatever the verdict, and marked partial when the wait ended
// before a run did. Every word and class on the page is the verdict's.
func WriteHTMLFile(path string, v verdict.Verdict, ev Evidence, history map[string][]api.RunSummary, now func() time.Time, res Resume) error {
	rep := htmlreport.Report{ExitCode: v.Code}
	if r, ok := headline(v); ok {
		rep.Verdict, rep.Class = strings.ReplaceAll(r.Result, "_", " "), runMark(r)
	}
	if now != nil {
		rep.GeneratedAt = now()
	}
	if ids, _, stop := pending(v); len(ids) > 0 {
		rep.Partial, rep.PartialReason = true, stop.Why()
		if !res.Sandbox { // a run of the embedded sandbox ended with it
			rep.Resume = shellwords.WaitCommand(res.Args, ids)
		}
	}
	for _, r := range v.Runs {
		run := htmlRun(r, ev, history[r.Plan.ShortID])
		if v.Classified {
			for i, c := range r.Cases {
				if c.Failure != "" {
					run.Cases[i].Failure, run.Cases[i].FailureNote = string(c.Failure), quarantineNote(c)
				}
			}
		}
		rep.Runs = append(rep.Runs, run)
	}
	return htmlreport.Write(path, rep)
}

// headline is the run the report is headlined with: the first that gives
// the command its exit code, whose result says why it is that code
// (FAILED, TIMED_OUT, NOT_STARTED, …); none when there is no run.
func headline(v verdict.Verdict) (verdict.Run, bool) {
	for _, r := range v.Runs {
		if r.Code == v.Code {
			return r, true
		}
	}
	return verdict.Run{}, false
}

// runMark is how the run ended, in the classes of its test cases, for the
// page that colours and orders runs by them: never Passed, Flaky or
// Skipped for a run whose Code is not 0.
//
//   - a start that failed, a run without a verdict (polling stopped, no
//     answer), a run that ended ERROR or CANCELLED: Errored;
//   - a wait that ended before the run did (--timeout, Ctrl-C, SIGTERM, a
//     report of an unfinished run): NotRun, as its test cases still
//     running; the run goes on;
//   - any other run that fails the command (FAILED, a result testctl does
//     not know, a flag that fails a pass, a rerun lost): Failed;
//   - a pass: Flaky when a test case passed only on a retry, Skipped when
//     the run ended SKIPPED, else Passed.
func runMark(r verdict.Run) verdict.Class {
	switch {
	case r.Class == verdict.RunNotStarted || r.Class == verdict.RunNoVerdict || r.Class == verdict.RunErrored:
		return verdict.Errored
	case r.Class == verdict.RunStopped:
		return verdict.NotRun
	case !r.OK():
		return verdict.Failed
	case r.Counts.Flaky > 0:
		return verdict.Flaky
	case r.Class == verdict.RunSkipped:
		return verdict.Skipped
	}
	return verdict.Passed
}

func htmlRun(r verdict.Run, ev Evidence, history []api.RunSummary) htmlreport.Run {
	out := htmlreport.Run{PlanName: r.Plan.Title(), PlanShortID: r.Plan.ShortID, ShortID: r.ShortID, URL: r.URL,
		Result: r.Result, Class: runMark(r), NotStarted: r.NotStarted, MaybeStarted: r.MaybeStarted, StartedAt: r.StartedAt,
		Ended: strings.Trim(EndedWhen(r.Record), " ()"), Note: CIRetryText(r)}
	if r.Detail != nil {
		out.Status = r.Detail.Status
	}
	switch {
	case r.MaybeStarted:
		out.Problem = "a run may have been created: " + FirstLine(r.Err.Error())
	case r.NotStarted:
		out.Problem = "the start failed: " + FirstLine(r.Err.Error())
	case r.Err != nil:
		out.Problem = "no verdict: " + FirstLine(r.Err.Error())
	case r.Stop != "":
		out.Problem = runHeadline(r)
	case r.Because != "":
		out.Problem = becauseText(r)
	}
	for _, a := range r.Attempts() {
		at := htmlreport.Attempt{ShortID: a.ShortID, URL: a.URL}
		if a.Detail != nil {
			at.Result, at.Class = a.Detail.ResultOrEmpty(), verdict.SummaryClass(a.Detail.Status, a.Detail.ResultOrEmpty())
		}
		if a.ShortID != "" {
			out.Attempts = append(out.Attempts, at)
		}
	}
	for _, h := range history {
		e := htmlreport.HistoryEntry{ShortID: h.ShortID, URL: h.URL, Status: h.Status}
		if h.Result != nil {
			e.Result = *h.Result
		}
		e.Class = verdict.SummaryClass(e.Status, e.Result)
		if start, end := api.Time(h.StartedAt), api.Time(h.FinishedAt); !start.IsZero() && end.After(start) {
			e.Duration = end.Sub(start)
		}
		e.CreatedAt, _ = time.Parse(time.RFC3339Nano, h.CreatedAt)
		out.History = append(out.History, e)
	}
	for _, c := range r.Cases {
		hc := htmlCase(c, ev)
		if c.Class == verdict.Flaky && c.FirstFailure != nil {
			failed := htmlCase(verdict.Case{RunTestCase: *c.FirstFailure, Class: verdict.ClassOf(*c.FirstFailure, true), RunShortID: c.FailedRunShortID,
				Attempt: c.Attempt - c.Retry}, ev)
			hc.FailedAttempt = &failed
		}
		out.Cases = append(out.Cases, hc)
	}
	return out
}

func htmlCase(c verdict.Case, ev Evidence) htmlreport.Case {
	hc := htmlreport.Case{Name: c.Name, ShortID: c.ShortID, Class: c.Class, Status: c.Status, Result: c.Result,
		ResultTitle: c.ResultTitle, Evaluation: c.EvaluationThought, Attempt: c.Attempt}
	if e, ok := ev.get(c.ShortID); ok {
		hc.Evidence = &e
	}
	return hc
}
