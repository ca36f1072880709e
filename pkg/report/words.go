package report

import (
	"fmt"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// The words of a run's outcome that more than one report gives, derived
// from verdict.Run here once: the verdict decides, the reports only say it.

// StatusText is the run's status and its result after every attempt,
// "COMPLETED · FAILED"; the service's status alone while it has no result;
// the result word (NOT_STARTED, NO_VERDICT) when it was never read.
func StatusText(r verdict.Run) string {
	switch {
	case r.Detail == nil:
		return r.Result
	case r.Class == verdict.RunStopped || r.Class == verdict.RunErrored || r.Class == verdict.RunNoVerdict:
		return DetailStatusText(r.Detail)
	}
	return r.Detail.Status + " · " + r.Result
}

// DetailStatusText is a run detail's own "COMPLETED · FAILED", or its bare
// status while there is no result.
func DetailStatusText(d *api.RunDetail) string {
	if res := d.ResultOrEmpty(); res != "" {
		return d.Status + " · " + res
	}
	return d.Status
}

// warned reports whether a run that passes the gate has something to say:
// it ended SKIPPED, or some test cases were skipped, did not run, passed
// only on a retry, or failed without failing the gate (known with
// --fail-on new, or quarantined).
func warned(r verdict.Run) bool {
	return r.OK() && (r.Class == verdict.RunSkipped || r.Counts.Flaky+r.Counts.Skipped+r.Counts.NotRun+r.Counts.Failed+r.Counts.Errored > 0)
}

// whyFailed says why a run the gate fails failed when none of its test
// cases says so (a run-level annotation, JUnit's run verdict); "" when a
// test case that fails the gate does, or the run passed. Test cases whose
// failures the gate excuses (known, quarantined) do not say why it failed.
func whyFailed(r verdict.Run) string {
	if r.OK() || r.Gating() > 0 {
		return ""
	}
	status := termtext.SanitizeLine(StatusText(r))
	switch {
	case r.Class == verdict.RunNotStarted, r.Class == verdict.RunNoVerdict:
		return errLine(r.Err)
	case r.Class == verdict.RunStopped && r.Detail == nil:
		return "no answer before " + r.Stop.Why()
	case r.Class == verdict.RunStopped:
		return fmt.Sprintf("still %s when %s", termtext.SanitizeLine(r.Detail.Status), r.Stop.Why())
	case r.RerunErr != nil && r.Code == exitcode.Service:
		return errLine(r.RerunErr)
	case r.Class == verdict.RunErrored:
		return "the run ended " + status
	case r.Because == verdict.NoTestCase:
		return fmt.Sprintf("the run ended %s but %s (an empty plan, or every test case disabled); --pass-with-no-tests lets such a run pass", status, verdict.NoTestCase)
	case r.Because == "--fail-on-flaky":
		return fmt.Sprintf("the run ended %s: failing because of --fail-on-flaky (%s passed only on a retry)", status, termtext.Plural(r.Counts.Flaky, "test case"))
	case r.Because == "--fail-on-skipped":
		return fmt.Sprintf("the run ended %s: failing because of --fail-on-skipped (%s skipped or not run)", status, termtext.Plural(r.Counts.Skipped+r.Counts.NotRun, "test case"))
	case r.Counts.Failed+r.Counts.Errored > 0:
		return "the run ended " + status + "; its failures are " + r.Failures.String() + ", but testctl does not know that result"
	case len(r.Cases) == 0:
		return "the run ended " + status + " with no test cases"
	}
	return "the run ended " + status + " with no failed test case"
}

// becauseText says what failed a run that passed on its own: "failing
// because of --fail-on-skipped", "failing: it ran no test case (…)"; ""
// when nothing did.
func becauseText(r verdict.Run) string {
	switch r.Because {
	case "":
		return ""
	case verdict.NoTestCase:
		return "failing: it " + verdict.NoTestCase + "; --pass-with-no-tests lets it pass"
	}
	return "failing because of " + r.Because
}

// errLine is the first line of an error's text, "" for none.
func errLine(err error) string {
	if err == nil {
		return ""
	}
	return FirstLine(err.Error())
}

// ClassStyle is the colour of a class's mark and words on a terminal:
// green passed, red failed or errored, yellow skipped, flaky or not run;
// none for "". The views own their colours: iostreams knows no outcome.
func ClassStyle(st *iostreams.Styles, c verdict.Class) func(string) string {
	switch c {
	case verdict.Passed:
		return st.Success
	case verdict.Failed, verdict.Errored:
		return st.Failure
	case verdict.Skipped, verdict.Flaky, verdict.NotRun:
		return st.Warning
	}
	return plain
}

func plain(s string) string { return s }

// ColorStatus colours a run's or test case's status or result word, as the
// service sends it, by the class it stands for (verdict.WordClass); a word
// testctl does not know stays plain.
func ColorStatus(st *iostreams.Styles, word string) string {
	return ClassStyle(st, verdict.WordClass(word))(word)
}

// RunStyle is the colour of a run's status: its code's first (a run the
// gate fails is never green), then yellow when it passed with warnings.
func RunStyle(st *iostreams.Styles, r verdict.Run) func(string) string {
	switch {
	case !r.OK():
		return st.Failure
	case warned(r):
		return st.Warning
	}
	return st.Success
}

// StartWord is what the reports say of a start that gave no run: "not
// started", or, when its request may have reached the service, "may have
// started a run" (never "not started": that invites a second start).
func StartWord(r verdict.Run) string {
	if r.MaybeStarted {
		return "may have started a run"
	}
	return "not started"
}

// CIRetryText says what a retried CI job did with the run of this plan its
// earlier attempt started, for every report: "passed in run r0a1b2,
// started by attempt 1: not run again"; "" when the job is no retry.
func CIRetryText(r verdict.Run) string {
	ci := r.CIRetry
	if ci == nil {
		return ""
	}
	by := "an earlier attempt"
	if ci.Attempt > 0 {
		by = fmt.Sprintf("attempt %d", ci.Attempt)
	}
	run := termtext.SanitizeLine(ci.Run)
	switch ci.Action {
	case verdict.CIReused:
		return fmt.Sprintf("passed in run %s, started by %s: not run again", run, by)
	case verdict.CIRerunFailed:
		return fmt.Sprintf("the CI job was retried: the test cases that did not pass in run %s, started by %s, were rerun as run %s",
			run, by, termtext.SanitizeLine(r.ShortID))
	case verdict.CIWaited:
		return fmt.Sprintf("run %s, started by %s, was still going: waited on, not started again", run, by)
	}
	return "the CI job was retried, but " + termtext.SanitizeLine(ci.Why) + ": started anew"
}

// retryWords says on which retry a flaky test case passed: "passed on
// retry 1 of 2" (--retry-failed), or on the rerun a retried CI job made.
func retryWords(r verdict.Run, c verdict.Case) string {
	switch own := r.OwnRetry(c.Retry); {
	case own > 0:
		return fmt.Sprintf("passed on retry %d of %d", own, r.RetryLimit)
	case own == 0:
		return "passed when the CI job was retried"
	}
	return "passed on a retry made by an earlier attempt of the CI job"
}
