// Package ciretry finds, for a CI job that is a retry of an earlier
// attempt, the run each plan's start made in that attempt, so that the
// retry takes it up (--ci-retry): a run that passed is not run again, the
// failures of one that failed are rerun, one still going is waited on.
package ciretry

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The values of --ci-retry.
const (
	// Failed takes up the earlier attempt's runs (the default).
	Failed = "failed"
	// All always starts anew: a full re-verification.
	All = "all"
)

// Modes are the values --ci-retry takes.
var Modes = []string{Failed, All}

// Env is what the detection reads: the CI's variables, an HTTP client for
// the CI's own API (GitHub's attempts; nil is the default) and the clock.
type Env struct {
	Getenv func(string) string
	HTTP   *http.Client
	Now    time.Time
}

// Job is a CI job that is a retry, as its CI says.
type Job struct {
	CI string // "GitHub Actions", "GitLab CI", …
	// Attempt is this job's attempt number, 0 when the CI numbers none.
	Attempt int
	// Since is when the first attempt began and Until when this one did:
	// the earlier attempts' runs were created between the two.
	Since, Until time.Time
	// starts are the start times of the attempts, attempt k at k-1, as
	// far as they are known, to say which attempt started a run.
	starts []time.Time
	// Unknown says why the window could not be found: the job is a retry,
	// but nothing can be taken up, and a new run starts, saying so.
	Unknown string
	// Maybe: the CI does not say that the job is a retry (GitLab): it is
	// one only if a run of the plan and commit exists since the pipeline
	// was created, and nothing is said when none does.
	Maybe bool
}

// Detect says whether the job is a retry: GitHub Actions'
// GITHUB_RUN_ATTEMPT above 1 (the attempts' start times read from its
// API with GITHUB_TOKEN), GitLab's pipeline (CI_PIPELINE_CREATED_AT to
// CI_JOB_STARTED_AT: a retry only if an earlier run is found), Azure Pipelines'
// SYSTEM_JOBATTEMPT above 1 (SYSTEM_PIPELINESTARTTIME), Buildkite's
// BUILDKITE_RETRY_COUNT above 0 (which gives no start time). Nil: no
// retry.
func Detect(ctx context.Context, env Env) *Job {
	get := env.Getenv
	switch {
	case get("GITHUB_ACTIONS") == "true":
		n, _ := strconv.Atoi(get("GITHUB_RUN_ATTEMPT"))
		if n < 2 {
			return nil
		}
		job := &Job{CI: "GitHub Actions", Attempt: n, Until: env.Now}
		if err := gitHubAttempts(ctx, env, job); err != nil {
			job.Unknown = "when attempt 1 began could not be read (" + err.Error() + ")"
		}
		return job
	case get("GITLAB_CI") == "true":
		created := get("CI_PIPELINE_CREATED_AT")
		if created == "" {
			return nil
		}
		job := &Job{CI: "GitLab CI", Maybe: true, Until: env.Now}
		t, err := time.Parse(time.RFC3339, created)
		if err != nil {
			return nil // nothing says this is a retry: start as always
		}
		job.Since = t
		// The job's own start ends the window: a run another job of the
		// pipeline started since is not this job's earlier one.
		if started, err := time.Parse(time.RFC3339, get("CI_JOB_STARTED_AT")); err == nil && started.After(t) && started.Before(env.Now) {
			job.Until = started
		}
		return job
	case get("TF_BUILD") == "True" || get("TF_BUILD") == "true":
		n, _ := strconv.Atoi(get("SYSTEM_JOBATTEMPT"))
		if n < 2 {
			return nil
		}
		job := &Job{CI: "Azure Pipelines", Attempt: n, Until: env.Now}
		t, ok := parseAzureTime(get("SYSTEM_PIPELINESTARTTIME"))
		if !ok {
			job.Unknown = "SYSTEM_PIPELINESTARTTIME does not say when the pipeline began"
		}
		job.Since = t
		return job
	case get("BUILDKITE") == "true":
		n, _ := strconv.Atoi(get("BUILDKITE_RETRY_COUNT"))
		if n < 1 {
			return nil
		}
		return &Job{CI: "Buildkite", Attempt: n + 1, Until: env.Now,
			Unknown: "Buildkite does not say when the first attempt began"}
	}
	return nil
}

// parseAzureTime reads SYSTEM_PIPELINESTARTTIME, which Azure writes as
// "2026-03-04 16:24:14+00:00".
func parseAzureTime(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02 15:04:05-07:00", time.RFC3339, "2006-01-02 15:04:05Z07:00"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// AttemptOf is the attempt that created a run at t: the last one that
// began at or before t; 0 when the start times are not known.
func (j *Job) AttemptOf(t time.Time) int {
	n := 0
	for i, s := range j.starts {
		if !s.IsZero() && !t.Before(s) {
			n = i + 1
		}
	}
	return n
}

// Since says when the window opens, in words, for the lines that say why
// nothing was taken up: "since attempt 1 began", "since the pipeline was
// created".
func (j *Job) since() string {
	if j.Maybe {
		return "since the pipeline was created"
	}
	return "since attempt 1 began"
}

// Announce is the line that says the job is a retry and what --ci-retry
// will do; "" for a job that may not be one (GitLab), until a run says so.
func (j *Job) Announce(mode string) string {
	if j.Maybe {
		return ""
	}
	what := fmt.Sprintf("%s: attempt %d of this job", j.CI, j.Attempt)
	if mode == All {
		return what + ": --ci-retry all starts every run anew"
	}
	return what + ": taking up the runs of the earlier attempts (--ci-retry all starts anew)"
}
