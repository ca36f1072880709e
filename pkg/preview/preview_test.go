package preview_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/preview"
	"github.com/testctl/testctl/pkg/preview/previewtest"
)

const sha = "0123456789abcdef0123456789abcdef01234567"

type setup struct {
	gh    *previewtest.Server
	env   map[string]string
	clock *clock.Fake
	lines []string
}

func newSetup(t *testing.T) *setup {
	s := &setup{gh: previewtest.New(t, "ghs_job_token"), env: map[string]string{},
		clock: clock.NewFake(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))}
	s.gh.Env(func(k, v string) { s.env[k] = v })
	s.env["GITHUB_EVENT_NAME"] = "pull_request"
	return s
}

func (s *setup) find(t *testing.T, spec string, bound time.Duration) (preview.Found, error) {
	t.Helper()
	sp, err := preview.ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	f := &preview.Finder{Getenv: func(k string) string { return s.env[k] }, Clock: s.clock,
		Progress: func(l string) { s.lines = append(s.lines, l) }}
	return f.Find(context.Background(), sp, "", sha, s.clock.Now().Add(bound))
}

func wantCode(t *testing.T, err error, code int, says ...string) {
	t.Helper()
	if exitcode.Of(err) != code {
		t.Fatalf("err = %v (exit %d), want exit %d", err, exitcode.Of(err), code)
	}
	for _, w := range says {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q: %v", w, err)
		}
	}
}

// The environment_url of the newest deployment of the environment, once
// its statuses reach success; target_url (Vercel's dashboard) never.
func TestEnvironmentURLOnceSucceeded(t *testing.T) {
	s := newSetup(t)
	s.gh.Add(previewtest.Deployment{ID: 1, SHA: "other", Environment: "Preview"})
	s.gh.Add(previewtest.Deployment{ID: 2, SHA: sha, Environment: "Preview – web", Statuses: []previewtest.Status{{State: "success", EnvironmentURL: "https://wrong.example"}}})
	s.gh.Add(previewtest.Deployment{ID: 3, SHA: sha, Environment: "Preview", Statuses: []previewtest.Status{{State: "pending"}}})
	s.gh.OnRequest = func(n int) {
		if n == 4 { // the second look's list
			s.gh.SetStatus(3, previewtest.Status{State: "in_progress"})
		}
		if n == 6 {
			s.gh.SetStatus(3, previewtest.Status{State: "success", EnvironmentURL: "https://pr-7.vercel.app", TargetURL: "https://vercel.com/dash"})
		}
	}
	found, err := s.find(t, "github:Preview", 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if found.URL != "https://pr-7.vercel.app" || found.Deployment != 3 {
		t.Fatalf("found %+v", found)
	}
	reqs := s.gh.Requests()
	if !strings.HasPrefix(reqs[0], "GET /repos/octo/app/deployments?environment=Preview&per_page=100&sha="+sha) {
		t.Errorf("first request %q", reqs[0])
	}
	for _, a := range s.gh.Authorizations() {
		if a != "Bearer ghs_job_token" {
			t.Errorf("Authorization %q: only the job's token goes to GitHub", a)
		}
	}
	if slept, n := s.clock.Slept(); n != 2 || slept < 10*time.Second {
		t.Errorf("slept %s in %d pauses", slept, n)
	}
	if all := strings.Join(s.lines, "\n"); !strings.Contains(all, "is pending") || !strings.Contains(all, "succeeded") {
		t.Errorf("progress:\n%s", all)
	}
}

// Without an environment: the one non-production environment; several
// are named (exit 2); inactive statuses are skipped and a replacement is
// followed.
func TestEnvironmentChoice(t *testing.T) {
	s := newSetup(t)
	s.gh.Add(previewtest.Deployment{ID: 1, SHA: sha, Environment: "Production", Production: true, Statuses: []previewtest.Status{{State: "success", EnvironmentURL: "https://prod.example"}}})
	s.gh.Add(previewtest.Deployment{ID: 2, SHA: sha, Environment: "Preview", Statuses: []previewtest.Status{{State: "success", EnvironmentURL: "https://old.example"}, {State: "inactive"}}})
	s.gh.Add(previewtest.Deployment{ID: 3, SHA: sha, Environment: "Preview", Statuses: []previewtest.Status{{State: "success", EnvironmentURL: "https://new.example"}, {State: "inactive"}}})
	found, err := s.find(t, "github", time.Minute)
	if err != nil || found.URL != "https://new.example" || found.Environment != "Preview" {
		t.Fatalf("found %+v, %v", found, err)
	}
	s.gh.Add(previewtest.Deployment{ID: 4, SHA: sha, Environment: "Storybook"})
	_, err = s.find(t, "github", time.Minute)
	wantCode(t, err, exitcode.Usage, "2 environments (Preview, Storybook)", "--preview github:Preview")
}

func TestFailedAndNeverSucceeded(t *testing.T) {
	s := newSetup(t)
	s.gh.Add(previewtest.Deployment{ID: 5, SHA: sha, Environment: "Preview", Statuses: []previewtest.Status{{State: "failure", Description: "Build failed"}}})
	_, err := s.find(t, "github:Preview", 10*time.Minute)
	wantCode(t, err, exitcode.Timeout, "deployment 5 of environment Preview ended in failure (Build failed)", "nothing was started")

	s = newSetup(t)
	s.gh.Add(previewtest.Deployment{ID: 6, SHA: sha, Environment: "Preview", Statuses: []previewtest.Status{{State: "in_progress"}}})
	start := s.clock.Now()
	_, err = s.find(t, "github:Preview", 2*time.Minute)
	wantCode(t, err, exitcode.Timeout, "did not succeed within 2m0s", "is in_progress")
	if waited := s.clock.Now().Sub(start); waited > 2*time.Minute {
		t.Errorf("waited %s past the bound", waited)
	}
	if n := strings.Count(strings.Join(s.lines, "\n"), "is in_progress"); n < 2 || n > 3 {
		t.Errorf("%d progress lines in 2 minutes, want one, then one a minute:\n%s", n, strings.Join(s.lines, "\n"))
	}

	s = newSetup(t)
	_, err = s.find(t, "github:Preview", time.Minute)
	wantCode(t, err, exitcode.Timeout, "no deployment of the commit to environment Preview yet")
}

// 401/403 that are not a rate limit name the permission (exit 4).
func TestRefused(t *testing.T) {
	for _, status := range []int{401, 403} {
		s := newSetup(t)
		s.gh.Force(status, nil, "Resource not accessible by integration")
		_, err := s.find(t, "github:Preview", time.Minute)
		wantCode(t, err, exitcode.Auth, "deployments: read", "HTTP "+strconv.Itoa(status))
	}
}

// A rate limit waits for its reset within the bound, else ends (exit 7)
// at once.
func TestRateLimit(t *testing.T) {
	s := newSetup(t)
	s.gh.Add(previewtest.Deployment{ID: 7, SHA: sha, Environment: "Preview", Statuses: []previewtest.Status{{State: "success", EnvironmentURL: "https://pr.example"}}})
	reset := s.clock.Now().Add(40 * time.Second).Unix()
	s.gh.Force(403, map[string]string{"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": strconv.FormatInt(reset, 10)}, "API rate limit exceeded")
	s.gh.Force(429, map[string]string{"Retry-After": "20"}, "secondary rate limit")
	found, err := s.find(t, "github:Preview", 10*time.Minute)
	if err != nil || found.URL != "https://pr.example" {
		t.Fatalf("%+v %v", found, err)
	}
	if slept, _ := s.clock.Slept(); slept < 60*time.Second {
		t.Errorf("slept %s, less than the rate limit asked", slept)
	}

	s = newSetup(t)
	s.gh.Force(403, map[string]string{"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": strconv.FormatInt(s.clock.Now().Add(time.Hour).Unix(), 10)}, "API rate limit exceeded")
	_, err = s.find(t, "github:Preview", 10*time.Minute)
	wantCode(t, err, exitcode.Timeout, "rate limit")
	if slept, _ := s.clock.Slept(); slept != 0 {
		t.Errorf("slept %s for a reset past the bound", slept)
	}
}

// Under deployment_status: the event's deployment, without the API when it
// succeeded; polled when not yet.
func TestDeploymentStatusEvent(t *testing.T) {
	s := newSetup(t)
	d := previewtest.Deployment{ID: 9, SHA: sha, Ref: "feature", Environment: "Preview",
		Statuses: []previewtest.Status{{State: "success", EnvironmentURL: "https://pr-9.vercel.app", TargetURL: "https://vercel.com/x"}}}
	s.env["GITHUB_EVENT_NAME"] = "deployment_status"
	s.env["GITHUB_EVENT_PATH"] = previewtest.EventFile(t, t.TempDir(), d)
	found, err := s.find(t, "github", time.Minute)
	if err != nil || found.URL != "https://pr-9.vercel.app" || len(s.gh.Requests()) != 0 {
		t.Fatalf("%+v %v, requests %v", found, err, s.gh.Requests())
	}

	d.Statuses = []previewtest.Status{{State: "pending"}}
	s.env["GITHUB_EVENT_PATH"] = previewtest.EventFile(t, t.TempDir(), d)
	s.gh.Add(d)
	s.gh.OnRequest = func(n int) {
		if n == 3 {
			s.gh.SetStatus(9, previewtest.Status{State: "success", EnvironmentURL: "https://pr-9b.vercel.app"})
		}
	}
	found, err = s.find(t, "github", time.Minute)
	if err != nil || found.URL != "https://pr-9b.vercel.app" {
		t.Fatalf("%+v %v", found, err)
	}
}

func TestParseSpec(t *testing.T) {
	if sp, err := preview.ParseSpec("github:Preview – web"); err != nil || sp.Environment != "Preview – web" {
		t.Errorf("%+v %v", sp, err)
	}
	if _, err := preview.ParseSpec("gitlab"); err == nil {
		t.Error("gitlab accepted")
	}
}
