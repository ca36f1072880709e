package e2e_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
)

// ciCases are each provider's variables as its runners set them. Where a
// provider publishes no commit message it is given as a flag, so the test
// does not depend on the repository it runs in.
func ciCases(t *testing.T) []struct {
	provider string
	env      map[string]string
	extra    []string
	want     map[string]string
} {
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"head_commit": {"message": "Fix the coupon check"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	msg := []string{"--commit-message", "Given as a flag"}
	return []struct {
		provider string
		env      map[string]string
		extra    []string
		want     map[string]string
	}{
		{"GitHub Actions", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_ACTOR": "octocat", "GITHUB_REF": "refs/heads/gh-branch",
			"GITHUB_SHA": "1111111aaaaaaa", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": event}, nil,
			map[string]string{"actor": "octocat", "branch": "gh-branch", "commitHash": "1111111aaaaaaa", "commitMessage": "Fix the coupon check", "repository": "acme/shop"}},
		{"GitLab CI", map[string]string{"GITLAB_CI": "true", "GITLAB_USER_LOGIN": "jdoe", "CI_COMMIT_BRANCH": "gl-branch",
			"CI_COMMIT_SHA": "2222222", "CI_COMMIT_MESSAGE": "GitLab message", "CI_PROJECT_PATH": "acme/group/shop"}, nil,
			map[string]string{"actor": "jdoe", "branch": "gl-branch", "commitHash": "2222222", "commitMessage": "GitLab message", "repository": "acme/group/shop"}},
		{"Bitbucket Pipelines", map[string]string{"BITBUCKET_BUILD_NUMBER": "9", "BITBUCKET_STEP_TRIGGERER_UUID": "{abc}", "BITBUCKET_BRANCH": "bb-branch",
			"BITBUCKET_COMMIT": "3333333", "BITBUCKET_REPO_FULL_NAME": "acme/shop"}, msg,
			map[string]string{"actor": "{abc}", "branch": "bb-branch", "commitHash": "3333333", "commitMessage": "Given as a flag", "repository": "acme/shop"}},
		{"CircleCI", map[string]string{"CIRCLECI": "true", "CIRCLE_USERNAME": "circle", "CIRCLE_BRANCH": "cc-branch", "CIRCLE_SHA1": "4444444",
			"CIRCLE_PROJECT_USERNAME": "acme", "CIRCLE_PROJECT_REPONAME": "shop"}, msg,
			map[string]string{"actor": "circle", "branch": "cc-branch", "commitHash": "4444444", "commitMessage": "Given as a flag", "repository": "acme/shop"}},
		{"Azure Pipelines", map[string]string{"TF_BUILD": "True", "BUILD_REQUESTEDFOR": "Jane Doe", "BUILD_SOURCEBRANCH": "refs/heads/az-branch",
			"BUILD_SOURCEVERSION": "5555555", "BUILD_SOURCEVERSIONMESSAGE": "Azure message", "BUILD_REPOSITORY_NAME": "shop"}, nil,
			map[string]string{"actor": "Jane Doe", "branch": "az-branch", "commitHash": "5555555", "commitMessage": "Azure message", "repository": "shop"}},
		{"Jenkins", map[string]string{"JENKINS_URL": "https://ci.example.com/", "GIT_BRANCH": "origin/jk-branch", "GIT_COMMIT": "6666666",
			"GIT_URL": "https://bot:secret-token@git.example.com/acme/shop.git", "GIT_AUTHOR_NAME": "Jen"}, msg,
			map[string]string{"actor": "Jen", "branch": "jk-branch", "commitHash": "6666666", "commitMessage": "Given as a flag", "repository": "acme/shop"}},
		{"Buildkite", map[string]string{"BUILDKITE": "true", "BUILDKITE_BUILD_CREATOR": "Kite", "BUILDKITE_BRANCH": "bk-branch",
			"BUILDKITE_COMMIT": "7777777", "BUILDKITE_MESSAGE": "Buildkite message", "BUILDKITE_REPO": "git@github.com:acme/shop.git"}, nil,
			map[string]string{"actor": "Kite", "branch": "bk-branch", "commitHash": "7777777", "commitMessage": "Buildkite message", "repository": "acme/shop"}},
	}
}

func TestCodehostFromEachCIProvider(t *testing.T) {
	for _, tt := range ciCases(t) {
		t.Run(tt.provider, func(t *testing.T) {
			e := cmdtest.New(t)
			for k, v := range tt.env {
				e.Setenv(k, v)
			}
			args := append([]string{"--plan", "pln-passing_sandbox", "--codehost"}, tt.extra...)
			body := e.DryRun(t, cmdtest.RunOptions{}, args...)
			if body["trigger"] != api.TriggerCodehost {
				t.Errorf("trigger %v", body["trigger"])
			}
			for k, v := range tt.want {
				if body[k] != v {
					t.Errorf("%s = %v, want %q", k, body[k], v)
				}
			}
			r := e.Run(append([]string{"run", "start", "--dry-run"}, args...)...).Expect(t, 0)
			cmdtest.Contains(t, "stderr", r.Stderr, "Code-host metadata from "+tt.provider)
			if strings.Contains(r.Output(), "secret-token") {
				t.Error("credentials of a clone URL were printed")
			}
		})
	}
}

// The metadata reaches the service: the run is listed with it.
func TestCodehostReachesTheService(t *testing.T) {
	e := cmdtest.New(t)
	for k, v := range ciCases(t)[0].env {
		e.Setenv(k, v)
	}
	e.Run("run", "start", "--plan", "pln-passing_sandbox", "--codehost").Expect(t, 0)
	r := e.Run("run", "list", "--branch", "gh-branch", "-o", "json").Expect(t, 0)
	var list api.RunList
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil || len(list.Runs) != 1 {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if run := list.Runs[0]; run.Trigger != api.TriggerCodehost || *run.CommitHash != "1111111aaaaaaa" {
		t.Errorf("%+v", run)
	}
}

func TestExplicitFlagsWinOverCI(t *testing.T) {
	e := cmdtest.New(t)
	for k, v := range ciCases(t)[1].env { // GitLab
		e.Setenv(k, v)
	}
	body := e.DryRun(t, cmdtest.RunOptions{}, "--plan", "pln-passing_sandbox", "--codehost", "--branch", "mine", "--actor", "me", "--trigger", "API")
	if body["branch"] != "mine" || body["actor"] != "me" || body["commitHash"] != "2222222" || body["trigger"] != "API" {
		t.Errorf("%v", body)
	}
}

func TestCodehostFallsBackToLocalGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipped: git is not installed (Debian's git)")
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "local-branch"}, {"config", "user.name", "Local Dev"}, {"config", "user.email", "dev@example.com"},
		{"remote", "add", "origin", "git@example.com:acme/local.git"}, {"commit", "-q", "--allow-empty", "-m", "Local commit"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	t.Chdir(dir)
	e := cmdtest.New(t)
	body := e.DryRun(t, cmdtest.RunOptions{}, "--plan", "pln-passing_sandbox", "--codehost")
	if body["actor"] != "Local Dev" || body["branch"] != "local-branch" || body["commitMessage"] != "Local commit" ||
		body["repository"] != "acme/local" || len(body["commitHash"].(string)) != 40 {
		t.Errorf("%v", body)
	}
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--codehost").Expect(t, 0)
	cmdtest.Contains(t, "stderr", r.Stderr, "Code-host metadata from local git", "Started run")
}

// Outside CI and git the CODEHOST rule is enforced before sending, naming
// the flags to pass.
func TestCodehostWithNothingToDetect(t *testing.T) {
	t.Chdir(t.TempDir())
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--codehost", "--actor", "me").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "the CODEHOST trigger needs --branch, --commit, --commit-message, --repository", "GitHub Actions")
	if n := e.Requests(postRun); n != 0 {
		t.Errorf("%d POSTs", n)
	}
}
