package start

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/reconcile"
	"github.com/testctl/testctl/pkg/termtext"
)

// maxConcurrentStarts bounds the POSTs in flight when several plans start:
// ten plans start in a few round trips, and a burst small enough not to
// trip the service's rate limit.
const maxConcurrentStarts = 4

// startFunc sends one start request.
// It may take up instead the run a retried CI job's earlier attempt
// started for it (taken).
type startFunc func(ctx context.Context, req api.StartRunRequest) (*api.StartRunResponse, *takenUp, error)

// started is the outcome of one start request.
type started struct {
	req   api.StartRunRequest
	resp  *api.StartRunResponse
	taken *takenUp // what a retried CI job did instead, nil outside one
	err   error
}

// requests makes one start request per plan from the common one, or the
// request itself for a run of test cases.
func requests(common api.StartRunRequest, plans []string) []api.StartRunRequest {
	if len(plans) == 0 {
		return []api.StartRunRequest{common}
	}
	reqs := make([]api.StartRunRequest, len(plans))
	for i, plan := range plans {
		reqs[i] = common
		reqs[i].TestPlanShortID = plan
	}
	return reqs
}

// startAll sends every request, at most maxConcurrentStarts at a time, and
// tells done about each outcome as soon as it is known, one at a time, so
// a run is announced the moment it exists. The outcomes are returned in the
// order of reqs.
func startAll(ctx context.Context, reqs []api.StartRunRequest, start startFunc, done func(started)) []started {
	out := make([]started, len(reqs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, maxConcurrentStarts)
	for i, req := range reqs {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			resp, taken, err := start(ctx, req)
			s := started{req: req, resp: resp, taken: taken, err: err}
			mu.Lock()
			defer mu.Unlock()
			out[i] = s
			done(s)
		})
	}
	wg.Wait()
	return out
}

// describeStart names what a failed start was for, in its error message.
func describeStart(req api.StartRunRequest) string {
	if req.TestPlanShortID != "" {
		return "plan " + termtext.SanitizeLine(req.TestPlanShortID)
	}
	return "the test cases"
}

// withStartFailure folds the code of a failed start into the outcome of
// the runs that did start: the larger code wins. The start's error was
// printed when it happened.
func withStartFailure(err error, startCode int) error {
	if startCode > exitcode.Of(err) {
		return &exitcode.Error{Code: startCode}
	}
	return err
}

// startFailureLine is the error line of a start that failed for good.
func startFailureLine(s started) string {
	if _, maybe := errors.AsType[*reconcile.MaybeCreatedError](s.err); maybe {
		return fmt.Sprintf("error: %s may have started a run: %s", describeStart(s.req), termtext.Sanitize(s.err.Error()))
	}
	return fmt.Sprintf("error: %s was not started: %s", describeStart(s.req), termtext.Sanitize(s.err.Error()))
}
