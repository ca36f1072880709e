package ciretry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/testctl/testctl/pkg/githubrest"
	"github.com/testctl/testctl/pkg/termtext"
)

// maxAttemptReads bounds the attempts read: past it only the first and
// this one are, and the attempt that started a run goes unnamed.
const maxAttemptReads = 10

// attemptTimeout bounds the reads of GitHub's API: a retry that cannot
// learn when attempt 1 began starts anew rather than wait.
const attemptTimeout = 20 * time.Second

// gitHubAttempts reads when each attempt of the workflow run began (GET
// /repos/{repo}/actions/runs/{id}/attempts/{n}, run_started_at): attempt 1
// opens the window, this one closes it.
func gitHubAttempts(ctx context.Context, env Env, job *Job) error {
	get := env.Getenv
	id := get("GITHUB_RUN_ID")
	if get("GITHUB_TOKEN") == "" {
		return errors.New("GITHUB_TOKEN is not set: pass it to the step, as env GITHUB_TOKEN: ${{ github.token }}")
	}
	if !digits(id) {
		return fmt.Errorf("GITHUB_RUN_ID (%q) is not a workflow run's id", termtext.SanitizeLine(id))
	}
	var rt http.RoundTripper
	if env.HTTP != nil {
		rt = env.HTTP.Transport
	}
	gh, err := githubrest.New(get, get("GITHUB_REPOSITORY"), rt, func() time.Time { return env.Now })
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	numbers := make([]int, 0, job.Attempt)
	if job.Attempt <= maxAttemptReads {
		for n := 1; n <= job.Attempt; n++ {
			numbers = append(numbers, n)
		}
	} else {
		numbers = append(numbers, 1, job.Attempt)
	}
	job.starts = make([]time.Time, job.Attempt)
	for _, n := range numbers {
		var doc struct {
			RunStartedAt time.Time `json:"run_started_at"`
		}
		if err := gh.Get(ctx, fmt.Sprintf("/actions/runs/%s/attempts/%d", id, n), nil, &doc); err != nil {
			if ge, ok := errors.AsType[*githubrest.Error](err); ok && !ge.RateLimited &&
				(ge.Status == http.StatusForbidden || ge.Status == http.StatusNotFound) {
				return fmt.Errorf("attempt %d: %w; the token needs the permission actions: read", n, err)
			}
			return fmt.Errorf("attempt %d: %w", n, err)
		}
		if doc.RunStartedAt.IsZero() {
			return fmt.Errorf("attempt %d: the answer has no run_started_at", n)
		}
		job.starts[n-1] = doc.RunStartedAt
	}
	job.Since = job.starts[0]
	if last := job.starts[job.Attempt-1]; last.After(job.Since) {
		job.Until = last
	}
	if len(numbers) < job.Attempt {
		job.starts = nil // attempts between unknown: none is named
	}
	return nil
}

func digits(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}
