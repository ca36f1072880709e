package runwait

import (
	"context"
	"fmt"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/poll"
	"github.com/testctl/testctl/pkg/report"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// retryPolicy is --retry-failed: a run that ends COMPLETED with FAILED has
// the test cases that did not pass rerun, up to limit times, and the wait
// goes on with the rerun. ERROR and CANCELLED runs are not retried: the
// environment, not a test, is what failed, or someone stopped the run.
type retryPolicy struct {
	limit int
	// rerun starts a rerun of a run; it is where a rerun whose answer was
	// lost is reconciled, as a start is.
	rerun  func(ctx context.Context, shortID string, req api.RerunRequest) (*api.StartRunResponse, error)
	client *api.Client // to find the project test case ids of a rerun
}

type rerunAnswer struct {
	resp *api.StartRunResponse
	what string // the test cases rerun, in words
	err  error
}

// startRetry starts, when the policy allows, a rerun of the test cases of
// the run just finished that did not pass, in the background: the lookup
// of a lost answer may take the service's visibility delay, and the other
// runs and the live view must not wait for it. It reports whether it did.
func (s *runState) startRetry(ctx context.Context, p retryPolicy) bool {
	if s.ownRetries() >= p.limit || s.verdict().Class != verdict.RunFailed {
		return false
	}
	failed, skipped := rerunNames(s.detail)
	if len(failed) == 0 {
		return false
	}
	s.rerunning, s.rerunDone = make(chan rerunAnswer, 1), make(chan struct{})
	id := s.target.ShortID
	go func() {
		req, what := rerunRequest(ctx, p.client, failed, skipped)
		resp, err := p.rerun(ctx, id, req)
		s.rerunning <- rerunAnswer{resp: resp, what: what, err: err}
		close(s.rerunDone)
	}()
	return true
}

// ownRetries is how many reruns --retry-failed made in this job: those a
// retried CI job took up from its earlier attempt do not count.
func (s *runState) ownRetries() int {
	return max(0, s.record("").OwnRetry(len(s.earlier)))
}

// RerunOfFailures is the rerun request of the test cases of a finished
// run that did not pass, as --retry-failed sends it, and what it reruns in
// words; ok is false when every test case passed.
func RerunOfFailures(ctx context.Context, c *api.Client, d *api.RunDetail) (req api.RerunRequest, what string, ok bool) {
	failed, skipped := rerunNames(d)
	if len(failed) == 0 {
		return api.RerunRequest{}, "", false
	}
	req, what = rerunRequest(ctx, c, failed, skipped)
	return req, what, true
}

// rerunNames are the names of the run's test cases that did not pass and
// of those skipped or not run (a test case that waits for a failed one is
// skipped), as the verdict classes them.
func rerunNames(d *api.RunDetail) (failed, skipped []string) {
	for _, tc := range d.RunTestCases {
		switch verdict.ClassOf(tc, true) {
		case verdict.Failed, verdict.Errored:
			failed = append(failed, tc.Name)
		case verdict.Skipped, verdict.NotRun:
			skipped = append(skipped, tc.Name)
		}
	}
	return failed, skipped
}

// rerunRequest reruns the test cases that did not pass together with the
// skipped ones, by their project test case ids, so that a test that never
// ran is not left out of the verdict. When the ids cannot be found (the
// test case list does not name each one once), it asks for the failed ones
// alone and the skipped keep their first result. Looking the ids up may
// page through the test case list: it runs with the rerun, beside the
// loop, never inside a poll.
func rerunRequest(ctx context.Context, c *api.Client, failed, skipped []string) (req api.RerunRequest, what string) {
	what = "the " + termtext.Plural(len(failed), "failed test case")
	if len(skipped) > 0 && c != nil {
		if ids, ok := projectTestCaseIDs(ctx, c, append(failed, skipped...)); ok {
			return api.RerunRequest{ProjectTestCaseIDs: ids}, what + " and " + termtext.Plural(len(skipped), "skipped test case")
		}
	}
	return api.RerunRequest{FailedOnly: true}, what
}

// rerunStarted takes the answer of the rerun started in the background:
// the run waited for becomes the rerun, or the wait on it ends with why.
func (s *runState) rerunStarted(events report.Reporter) poll.Outcome {
	ans := <-s.rerunning
	s.rerunning = nil
	retry := s.ownRetries() + 1
	if ans.err != nil {
		s.rerunErr = ans.err
		// A refusal is a warning, the run's own result being the verdict,
		// and its hint (how run ids look) would be about the wrong thing.
		level := "warning"
		if exitcode.Of(ans.err) == exitcode.Service {
			level = "error"
		}
		events.Notice(fmt.Sprintf("%s: retry %d of %d: the failed test cases of run %s could not be rerun: %s", level, retry, s.retryLimit,
			termtext.SanitizeLine(s.target.ShortID), termtext.SanitizeLine(report.FirstLine(ans.err.Error()))))
		return poll.Outcome{Done: true}
	}
	s.earlier = append(s.earlier, verdict.Attempt{ShortID: s.target.ShortID, URL: s.target.URL, Detail: s.detail})
	next := ans.resp.Run
	events.Notice(fmt.Sprintf("Retry %d of %d: rerunning %s of run %s as run %s: %s", retry, s.retryLimit,
		ans.what, termtext.SanitizeLine(s.target.ShortID),
		termtext.SanitizeLine(next.ShortID), termtext.SanitizeLine(next.URL)))
	created := s.now()
	s.target.ShortID, s.target.URL, s.target.CreatedAt = next.ShortID, next.URL, created
	s.poll.Name, s.poll.VisibleBy = "run "+next.ShortID, created.Add(api.NotYetVisibleGrace)
	s.detail, s.status, s.finished, s.sooner = nil, "", map[string]string{}, false
	s.justCreated, s.alreadyFinished, s.finishedAfter = true, false, 0
	return poll.Outcome{}
}
