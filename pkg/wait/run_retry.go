package wait

import (
	"context"
	"fmt"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/termtext"
)

// retryPolicy is --retry-failed: a run that ends COMPLETED with FAILED has
// its failed test cases rerun, up to limit times, and the wait goes on with
// the rerun. ERROR and CANCELLED runs are not retried: the environment, not
// a test, is what failed, or someone stopped the run.
type retryPolicy struct {
	limit int
	// rerun starts a rerun of the failed test cases of a run; it is where a
	// rerun whose answer was lost is reconciled, as a start is.
	rerun func(ctx context.Context, shortID string) (*api.StartRunResponse, error)
	now   func() time.Time
}

// retryable reports whether a finished run is one --retry-failed reruns:
// COMPLETED with FAILED, with failed test cases to rerun.
func retryable(d *api.RunDetail) (failed int) {
	if d.Status != api.StatusCompleted || d.ResultOrEmpty() != api.ResultFailed {
		return 0
	}
	for _, tc := range d.RunTestCases {
		if tc.Result == api.ResultFailed || tc.Status == api.StatusError {
			failed++
		}
	}
	return failed
}

// retry reruns the failed test cases of the run just finished, when the
// policy allows, and makes the rerun the run this state waits for. It
// reports whether the wait on this run goes on.
func (s *runState) retry(ctx context.Context, p retryPolicy, view progressView) bool {
	failed := retryable(s.detail)
	if len(s.earlier) >= p.limit || failed == 0 {
		return false
	}
	retry := len(s.earlier) + 1
	resp, err := p.rerun(ctx, s.target.ShortID)
	if err != nil {
		s.rerunErr = err
		view.notice(fmt.Sprintf("error: retry %d of %d: rerunning the failed test cases of run %s: %s", retry, p.limit,
			termtext.SanitizeLine(s.target.ShortID), termtext.Sanitize(err.Error())))
		return false
	}
	s.earlier = append(s.earlier, Attempt{ShortID: s.target.ShortID, URL: s.target.URL, Detail: s.detail})
	next := resp.Run
	view.notice(fmt.Sprintf("Retry %d of %d: rerunning the %s of run %s as run %s: %s", retry, p.limit,
		plural(failed, "failed test case"), termtext.SanitizeLine(s.target.ShortID),
		termtext.SanitizeLine(next.ShortID), termtext.SanitizeLine(next.URL)))
	created := p.now()
	s.target.ShortID, s.target.URL, s.target.CreatedAt = next.ShortID, next.URL, created
	s.poll.Name, s.poll.VisibleBy = "run "+next.ShortID, created.Add(NotYetVisibleGrace)
	s.detail, s.status, s.finished, s.verdict = nil, "", map[string]bool{}, 0
	s.justCreated, s.alreadyFinished, s.finishedAfter = true, false, 0
	return true
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
