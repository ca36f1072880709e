package ciretry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/testctl/testctl/pkg/api"
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
	token, repo, id := get("GITHUB_TOKEN"), get("GITHUB_REPOSITORY"), get("GITHUB_RUN_ID")
	switch {
	case token == "":
		return errors.New("GITHUB_TOKEN is not set: pass it to the step, as env GITHUB_TOKEN: ${{ github.token }}")
	case repo == "" || id == "":
		return errors.New("GITHUB_REPOSITORY or GITHUB_RUN_ID is not set")
	case strings.Count(repo, "/") != 1 || strings.ContainsAny(repo, "?#%") || !digits(id):
		return fmt.Errorf("GITHUB_REPOSITORY (%q) or GITHUB_RUN_ID (%q) is malformed", termtext.SanitizeLine(repo), termtext.SanitizeLine(id))
	}
	base := strings.TrimRight(get("GITHUB_API_URL"), "/")
	if base == "" {
		base = "https://api.github.com"
	}
	if err := checkBase(base); err != nil {
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
		path := fmt.Sprintf("%s/repos/%s/actions/runs/%s/attempts/%d", base, repo, id, n)
		started, err := runStartedAt(ctx, env, path, token)
		if err != nil {
			return fmt.Errorf("attempt %d: %w", n, err)
		}
		job.starts[n-1] = started
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

// checkBase refuses an API address that would carry the token in clear:
// plain http only to this machine.
func checkBase(base string) error {
	u, err := url.Parse(base)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return errors.New("GITHUB_API_URL is not an http(s) address")
	case u.User != nil || u.RawQuery != "":
		return errors.New("GITHUB_API_URL carries credentials or a query")
	case u.Scheme == "http" && !api.IsLoopback(u.Hostname()):
		return errors.New("GITHUB_API_URL is plain http: the token would travel in clear")
	}
	return nil
}

// runStartedAt is one attempt's run_started_at.
func runStartedAt(ctx context.Context, env Env, u, token string) (time.Time, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return time.Time{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("User-Agent", "testctl")
	client := env.HTTP
	if client == nil {
		client = &http.Client{}
	}
	c := *client
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if !api.SameOrigin(via[0], r) || len(via) >= 5 {
			return errors.New("redirected to another origin: not followed with the token")
		}
		return nil
	}
	if env.Debug != nil {
		fmt.Fprintf(env.Debug, "> GET %s\n> Authorization: [REDACTED]\n", u)
	}
	resp, err := c.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return time.Time{}, ctx.Err()
		}
		return time.Time{}, errors.New(strings.ReplaceAll(err.Error(), token, "[REDACTED]"))
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return time.Time{}, err
	}
	if env.Debug != nil {
		fmt.Fprintf(env.Debug, "< HTTP %d\n", resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		return time.Time{}, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var doc struct {
		RunStartedAt string `json:"run_started_at"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return time.Time{}, fmt.Errorf("unreadable answer: %v", err)
	}
	t, err := time.Parse(time.RFC3339, doc.RunStartedAt)
	if err != nil {
		return time.Time{}, errors.New("the answer has no run_started_at")
	}
	return t, nil
}
