package ciretry

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestDetect(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		env     map[string]string
		retry   bool
		unknown string
		since   time.Time
	}{
		{"no CI", map[string]string{}, false, "", time.Time{}},
		{"GitHub, attempt 1", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ATTEMPT": "1"}, false, "", time.Time{}},
		{"GitHub, attempt 2, no token", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "1"},
			true, "when attempt 1 began could not be read (GITHUB_TOKEN is not set", time.Time{}},
		{"GitHub, a malformed run id", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "1/../x", "GITHUB_TOKEN": "t"},
			true, "is not a workflow run's id", time.Time{}},
		{"GitHub, a token over plain http", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_RUN_ATTEMPT": "2", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "1", "GITHUB_TOKEN": "t",
			"GITHUB_API_URL": "http://ghe.example.com/api/v3"}, true, "plain http: the token would travel in clear", time.Time{}},
		{"GitLab", map[string]string{"GITLAB_CI": "true", "CI_PIPELINE_CREATED_AT": "2026-12-07T11:50:00Z"}, true, "", now.Add(-10 * time.Minute)},
		{"GitLab, the window ends when the job began", map[string]string{"GITLAB_CI": "true", "CI_PIPELINE_CREATED_AT": "2026-12-07T11:50:00Z",
			"CI_JOB_STARTED_AT": "2026-12-07T11:58:00Z"}, true, "", now.Add(-10 * time.Minute)},
		{"GitLab without the pipeline's time", map[string]string{"GITLAB_CI": "true"}, false, "", time.Time{}},
		{"Azure, attempt 2", map[string]string{"TF_BUILD": "True", "SYSTEM_JOBATTEMPT": "2", "SYSTEM_PIPELINESTARTTIME": "2026-12-07 11:40:00+00:00"}, true, "", now.Add(-20 * time.Minute)},
		{"Azure, attempt 1", map[string]string{"TF_BUILD": "True", "SYSTEM_JOBATTEMPT": "1"}, false, "", time.Time{}},
		{"Buildkite, retried", map[string]string{"BUILDKITE": "true", "BUILDKITE_RETRY_COUNT": "1"}, true, "Buildkite does not say when the first attempt began", time.Time{}},
		{"Buildkite, first", map[string]string{"BUILDKITE": "true", "BUILDKITE_RETRY_COUNT": "0"}, false, "", time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := Detect(context.Background(), Env{Getenv: func(k string) string { return tc.env[k] }, Now: now})
			if (job != nil) != tc.retry {
				t.Fatalf("retry %v, want %v", job != nil, tc.retry)
			}
			if job == nil {
				return
			}
			if tc.unknown == "" && job.Unknown != "" || !strings.Contains(job.Unknown, tc.unknown) {
				t.Errorf("Unknown %q, want %q", job.Unknown, tc.unknown)
			}
			until := now
			if s := tc.env["CI_JOB_STARTED_AT"]; s != "" {
				until, _ = time.Parse(time.RFC3339, s)
			}
			if tc.unknown == "" && (!job.Since.Equal(tc.since) || !job.Until.Equal(until)) {
				t.Errorf("window %s – %s, want %s – %s", job.Since, job.Until, tc.since, until)
			}
		})
	}
}

func TestAttemptOf(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	j := &Job{starts: []time.Time{t0, t0.Add(time.Hour), t0.Add(2 * time.Hour)}}
	for at, want := range map[time.Duration]int{-time.Minute: 0, 0: 1, 30 * time.Minute: 1, 61 * time.Minute: 2, 3 * time.Hour: 3} {
		if got := j.AttemptOf(t0.Add(at)); got != want {
			t.Errorf("a run created at +%s: attempt %d, want %d", at, got, want)
		}
	}
	if got := (&Job{}).AttemptOf(t0); got != 0 {
		t.Errorf("no start times: attempt %d, want 0", got)
	}
}
