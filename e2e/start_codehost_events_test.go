package e2e_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/sandbox"
)

// In CI, --codehost never stops a start: each event and pipeline as its
// runner sets the variables, with no checkout unless the test makes one
// (the docs' example workflows have none). The bodies are those that
// reached the server (a proxy before the sandbox records them), and the
// sandbox, which enforces the CODEHOST rule, starts the run.

// recordStarts puts a proxy before the env's sandbox that keeps the body of
// every POST /v1/run, and returns what it kept so far.
func recordStarts(t *testing.T, e *cmdtest.Env) func() []map[string]any {
	t.Helper()
	target, err := url.Parse(e.Getenv("TESTCTL_BASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var bodies []map[string]any
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/run" {
			data, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(data))
			var body map[string]any
			if err := json.Unmarshal(data, &body); err != nil {
				t.Errorf("POST /v1/run body %q: %v", data, err)
			}
			mu.Lock()
			bodies = append(bodies, body)
			mu.Unlock()
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	return func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return append([]map[string]any(nil), bodies...)
	}
}

// ciJob is a CI step in a directory without a checkout: env holds the
// runner's variables, event (for GitHub) the event file's contents.
func ciJob(t *testing.T, env map[string]string, event string) (*cmdtest.Env, func() []map[string]any) {
	t.Helper()
	t.Chdir(t.TempDir()) // no .git here, nor above
	// Nor the machine's git identity: a runner has none.
	t.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	e := cmdtest.New(t)
	if env["GITHUB_ACTIONS"] == "true" {
		e.GitHubActions()
		e.Setenv("GITHUB_EVENT_PATH", e.WriteFile("gh/event.json", event))
	}
	for k, v := range env {
		e.Setenv(k, v)
	}
	return e, recordStarts(t, e)
}

// oneStart returns the one start body that reached the server.
func oneStart(t *testing.T, starts func() []map[string]any) map[string]any {
	t.Helper()
	got := starts()
	if len(got) != 1 {
		t.Fatalf("%d starts reached the server, want 1: %v", len(got), got)
	}
	return got[0]
}

// checkBody fails unless body holds want's members, and none of absent.
func checkBody(t *testing.T, body map[string]any, want map[string]string, absent ...string) {
	t.Helper()
	for k, v := range want {
		if body[k] != v {
			t.Errorf("%s = %v, want %q (body %v)", k, body[k], v, body)
		}
	}
	for _, k := range absent {
		if _, ok := body[k]; ok {
			t.Errorf("%s sent: %v", k, body)
		}
	}
}

// gitHubVars are a GitHub runner's variables for event on ref.
func gitHubVars(event, ref string) map[string]string {
	refType, name := "branch", strings.TrimPrefix(ref, "refs/heads/")
	if tag, ok := strings.CutPrefix(ref, "refs/tags/"); ok {
		refType, name = "tag", tag
	}
	return map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_REF": ref,
		"GITHUB_REF_NAME": name, "GITHUB_REF_TYPE": refType, "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567",
		"GITHUB_ACTOR": "octocat", "GITHUB_REPOSITORY": "acme/shop"}
}

const startCodehost = "--codehost"

func TestCodehostGitHubTagPushWithoutCheckout(t *testing.T) {
	e, starts := ciJob(t, gitHubVars("push", "refs/tags/v1.2.3"),
		`{"ref":"refs/tags/v1.2.3","created":true,"head_commit":{"id":"0123456789abcdef0123456789abcdef01234567","message":"Release 1.2.3\n\nNotes"}}`)
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost, "--wait").Expect(t, 0)
	checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerCodehost, "branch": "v1.2.3",
		"commitHash": "0123456789abcdef0123456789abcdef01234567", "commitMessage": "Release 1.2.3\n\nNotes", "actor": "octocat", "repository": "acme/shop"})
	cmdtest.Contains(t, "stderr", r.Stderr, `Code-host metadata from GitHub Actions: 0123456789ab on v1.2.3 in acme/shop by octocat ("Release 1.2.3")`)
	if strings.Contains(r.Stderr, "warning") {
		t.Errorf("a complete tag push warned:\n%s", r.Stderr)
	}
}

// newCheckout makes a git repository with a commit "Release 1.2.3" tagged
// v1.2.3 and a later one on main, as actions/checkout would leave it, and
// returns its directory and a function that runs git in it.
func newCheckout(t *testing.T) (string, func(args ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipped: git is not installed (Debian's git)")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("config", "user.name", "Dev")
	git("config", "user.email", "dev@example.com")
	git("commit", "-q", "--allow-empty", "-m", "Release 1.2.3")
	git("tag", "v1.2.3")
	git("commit", "-q", "--allow-empty", "-m", "Nightly fixes")
	return dir, git
}

// actions/checkout on a tag push leaves HEAD detached at the tag; the event
// here has no head_commit (as act's may not): git gives the message.
func TestCodehostGitHubTagPushWithDetachedCheckout(t *testing.T) {
	e, starts := ciJob(t, gitHubVars("push", "refs/tags/v1.2.3"), `{"ref":"refs/tags/v1.2.3"}`)
	dir, git := newCheckout(t)
	git("checkout", "-q", "--detach", "v1.2.3")
	sha := git("rev-parse", "HEAD")
	e.Setenv("GITHUB_SHA", sha)
	t.Chdir(dir)
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost, "--wait").Expect(t, 0)
	checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerCodehost, "branch": "v1.2.3",
		"commitHash": sha, "commitMessage": "Release 1.2.3", "actor": "octocat", "repository": "acme/shop"})
	cmdtest.Contains(t, "stderr", r.Stderr, "Code-host metadata from GitHub Actions and local git")
}

// The remedy the warning names: with a checkout, a scheduled run has its
// commit message, and starts with CODEHOST.
func TestCodehostGitHubScheduleWithCheckout(t *testing.T) {
	e, starts := ciJob(t, gitHubVars("schedule", "refs/heads/main"), `{"schedule":"0 3 * * *"}`)
	dir, git := newCheckout(t)
	sha := git("rev-parse", "HEAD")
	e.Setenv("GITHUB_SHA", sha)
	t.Chdir(dir)
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost).Expect(t, 0)
	checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerCodehost, "branch": "main",
		"commitHash": sha, "commitMessage": "Nightly fixes", "actor": "octocat", "repository": "acme/shop"})
	if strings.Contains(r.Stderr, "warning") {
		t.Errorf("stderr:\n%s", r.Stderr)
	}
}

// workflow_dispatch and schedule carry no commit, and with no checkout the
// commit message is nowhere: the run starts with trigger API and all the
// rest, a warning (and a ::warning annotation) names what was missing and
// how to pass it, and the exit code is the run's.
func TestCodehostGitHubEventsWithoutMessageStartWithTriggerAPI(t *testing.T) {
	for _, tt := range []struct {
		event, payload, plan string
		code                 int
	}{
		{"workflow_dispatch", `{"ref":"refs/heads/main","inputs":{"suite":"full"},"repository":{"full_name":"acme/shop","default_branch":"main"},"sender":{"login":"octocat"}}`,
			sandbox.PlanFailing, 1},
		{"schedule", `{"schedule":"0 3 * * *"}`, sandbox.PlanPassing, 0},
	} {
		t.Run(tt.event, func(t *testing.T) {
			e, starts := ciJob(t, gitHubVars(tt.event, "refs/heads/main"), tt.payload)
			r := e.Run("run", "start", "--plan", tt.plan, startCodehost, "--wait").Expect(t, tt.code)
			checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerAPI, "branch": "main",
				"commitHash": "0123456789abcdef0123456789abcdef01234567", "actor": "octocat", "repository": "acme/shop"}, "commitMessage")
			cmdtest.Contains(t, "stderr", r.Stderr,
				"warning: --codehost found no commit message (GitHub Actions, "+tt.event+" event, no git checkout), which the CODEHOST trigger requires: "+
					"the run starts with trigger API and the metadata found. To send it, pass --commit-message (with the testctl action: in its args input), "+
					"or check out the repository before this step.\n",
				"::warning title=testctl%3A run started with trigger API%2C not CODEHOST::--codehost found no commit message (GitHub Actions, "+tt.event+" event, no git checkout)",
				"Started run")
			if strings.Contains(r.Stderr, "started nothing") {
				t.Errorf("the start was refused:\n%s", r.Stderr)
			}
		})
	}
}

// A GitLab tag pipeline has CI_COMMIT_TAG and no CI_COMMIT_BRANCH.
func TestCodehostGitLabTagPipeline(t *testing.T) {
	e, starts := ciJob(t, map[string]string{"CI": "true", "GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "push", "CI_COMMIT_TAG": "v1.2.3",
		"CI_COMMIT_REF_NAME": "v1.2.3", "CI_COMMIT_SHA": "89abcdef0123456789abcdef0123456789abcdef", "CI_COMMIT_MESSAGE": "Release 1.2.3",
		"CI_COMMIT_TITLE": "Release 1.2.3", "GITLAB_USER_LOGIN": "jdoe", "CI_PROJECT_PATH": "acme/group/shop", "CI_DEFAULT_BRANCH": "main"}, "")
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost, "--wait").Expect(t, 0)
	checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerCodehost, "branch": "v1.2.3",
		"commitHash": "89abcdef0123456789abcdef0123456789abcdef", "commitMessage": "Release 1.2.3", "actor": "jdoe", "repository": "acme/group/shop"})
	if strings.Contains(r.Stderr, "warning") || strings.Contains(r.Stderr, "::") {
		t.Errorf("stderr:\n%s", r.Stderr)
	}
}

// A merged results pipeline tests a merge commit GitLab made: the source
// branch's head and the merge request's title are sent, as for a GitHub
// pull request.
func TestCodehostGitLabMergedResultsPipeline(t *testing.T) {
	e, starts := ciJob(t, map[string]string{"CI": "true", "GITLAB_CI": "true", "CI_PIPELINE_SOURCE": "merge_request_event",
		"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "coupons", "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": "aaaaaaa1111111", "CI_MERGE_REQUEST_TITLE": "Add coupons",
		"CI_COMMIT_REF_NAME": "coupons", "CI_COMMIT_SHA": "bbbbbbb2222222", "CI_COMMIT_MESSAGE": "Merge branch 'coupons' into 'main'",
		"GITLAB_USER_LOGIN": "jdoe", "CI_PROJECT_PATH": "acme/shop"}, "")
	e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost).Expect(t, 0)
	checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerCodehost, "branch": "coupons",
		"commitHash": "aaaaaaa1111111", "commitMessage": "Add coupons", "actor": "jdoe", "repository": "acme/shop"})
}

// A pull request: its head branch and head commit (GITHUB_SHA is a merge
// commit nobody wrote), its title for the message.
func TestCodehostGitHubPullRequest(t *testing.T) {
	vars := gitHubVars("pull_request", "refs/pull/7/merge")
	vars["GITHUB_REF_NAME"], vars["GITHUB_HEAD_REF"], vars["GITHUB_BASE_REF"] = "7/merge", "coupons", "main"
	e, starts := ciJob(t, vars, `{"number":7,"pull_request":{"title":"Add coupons","head":{"ref":"coupons","sha":"feedfacefeedfacefeedfacefeedfacefeedface"},`+
		`"base":{"ref":"main"}},"repository":{"full_name":"acme/shop","default_branch":"main"},"sender":{"login":"octocat"}}`)
	e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost, "--wait").Expect(t, 0)
	checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerCodehost, "branch": "coupons",
		"commitHash": "feedfacefeedfacefeedfacefeedfacefeedface", "commitMessage": "Add coupons", "actor": "octocat", "repository": "acme/shop"})
}

// Explicit flags win over what CI gives, and complete what it lacks.
func TestCodehostExplicitFlagsWinInCI(t *testing.T) {
	e, starts := ciJob(t, gitHubVars("push", "refs/tags/v1.2.3"), `{"ref":"refs/tags/v1.2.3"}`)
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost, "--commit-message", "Release notes",
		"--actor", "release-bot", "--wait").Expect(t, 0)
	checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerCodehost, "branch": "v1.2.3",
		"commitMessage": "Release notes", "actor": "release-bot", "repository": "acme/shop"})
	if strings.Contains(r.Stderr, "warning") {
		t.Errorf("stderr:\n%s", r.Stderr)
	}

	e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost, "--branch", "release/1.2", "--commit-message", "m").Expect(t, 0)
	if got := starts(); len(got) != 2 || got[1]["branch"] != "release/1.2" {
		t.Errorf("--branch did not win: %v", got)
	}

	// --trigger CODEHOST asks for that trigger: it is not changed behind
	// the user's back, and nothing is sent.
	r = e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost, "--trigger", "CODEHOST").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "the CODEHOST trigger needs --commit-message", "pass --trigger API to start with trigger API")
	if n := len(starts()); n != 2 {
		t.Errorf("%d starts", n)
	}
}

// A CI service testctl does not know, saying so with CI=true: the same
// rule, without a GitHub annotation.
func TestCodehostUnknownCIStartsWithTriggerAPI(t *testing.T) {
	e, starts := ciJob(t, map[string]string{"CI": "woodpecker"}, "")
	r := e.Run("run", "start", "--plan", sandbox.PlanPassing, startCodehost, "--branch", "main").Expect(t, 0)
	checkBody(t, oneStart(t, starts), map[string]string{"trigger": api.TriggerAPI, "branch": "main"}, "commitHash", "actor")
	cmdtest.Contains(t, "stderr", r.Stderr, "warning: --codehost found no actor, commit, commit message or repository (the CI environment, no git checkout)",
		"pass --actor, --commit, --commit-message, --repository, or check out the repository before this step.")
	if strings.Contains(r.Stderr, "::warning") {
		t.Errorf("an annotation outside GitHub Actions:\n%s", r.Stderr)
	}
}
