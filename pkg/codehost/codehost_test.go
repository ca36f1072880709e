package codehost

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func lookupIn(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

func TestDetectCIPerProvider(t *testing.T) {
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"head_commit":{"message":"Fix checkout\n\nbody"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	prEvent := filepath.Join(t.TempDir(), "pr.json")
	if err := os.WriteFile(prEvent, []byte(`{"pull_request":{"title":"Add coupons","head":{"sha":"feedface"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		provider string
		env      map[string]string
		want     Meta
	}{
		{"GitHub Actions", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_ACTOR": "octocat", "GITHUB_REF": "refs/heads/main",
			"GITHUB_SHA": "abc123", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": event},
			Meta{"octocat", "main", "abc123", "Fix checkout\n\nbody", "acme/shop"}},
		{"GitHub Actions", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_ACTOR": "octocat", "GITHUB_TRIGGERING_ACTOR": "hubot",
			"GITHUB_REF": "refs/pull/7/merge", "GITHUB_HEAD_REF": "feature/coupons", "GITHUB_SHA": "merge1",
			"GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": prEvent},
			Meta{"hubot", "feature/coupons", "feedface", "Add coupons", "acme/shop"}},
		{"GitLab CI", map[string]string{"GITLAB_CI": "true", "GITLAB_USER_LOGIN": "jdoe", "CI_COMMIT_BRANCH": "develop",
			"CI_COMMIT_SHA": "def456", "CI_COMMIT_MESSAGE": "Bump deps", "CI_PROJECT_PATH": "acme/group/shop"},
			Meta{"jdoe", "develop", "def456", "Bump deps", "acme/group/shop"}},
		{"GitLab CI", map[string]string{"GITLAB_CI": "true", "GITLAB_USER_LOGIN": "jdoe", "CI_COMMIT_BRANCH": "",
			"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "mr-branch", "CI_COMMIT_SHA": "def456", "CI_COMMIT_MESSAGE": "m", "CI_PROJECT_PATH": "a/b"},
			Meta{"jdoe", "mr-branch", "def456", "m", "a/b"}},
		{"Bitbucket Pipelines", map[string]string{"BITBUCKET_BUILD_NUMBER": "12", "BITBUCKET_STEP_TRIGGERER_UUID": "{u-1}",
			"BITBUCKET_BRANCH": "main", "BITBUCKET_COMMIT": "0a1b2c", "BITBUCKET_REPO_FULL_NAME": "acme/shop"},
			Meta{"{u-1}", "main", "0a1b2c", "", "acme/shop"}},
		{"CircleCI", map[string]string{"CIRCLECI": "true", "CIRCLE_USERNAME": "cc", "CIRCLE_BRANCH": "main", "CIRCLE_SHA1": "c1",
			"CIRCLE_PROJECT_USERNAME": "acme", "CIRCLE_PROJECT_REPONAME": "shop"},
			Meta{"cc", "main", "c1", "", "acme/shop"}},
		{"CircleCI", map[string]string{"CIRCLECI": "true", "CIRCLE_USERNAME": "cc", "CIRCLE_BRANCH": "main", "CIRCLE_SHA1": "c1",
			"CIRCLE_REPOSITORY_URL": "git@github.com:acme/shop.git"},
			Meta{"cc", "main", "c1", "", "acme/shop"}},
		{"Azure Pipelines", map[string]string{"TF_BUILD": "True", "BUILD_REQUESTEDFOR": "Jane Doe", "BUILD_SOURCEBRANCH": "refs/heads/feature/x",
			"BUILD_SOURCEVERSION": "a2", "BUILD_SOURCEVERSIONMESSAGE": "Azure msg", "BUILD_REPOSITORY_NAME": "shop"},
			Meta{"Jane Doe", "feature/x", "a2", "Azure msg", "shop"}},
		{"Azure Pipelines", map[string]string{"TF_BUILD": "True", "BUILD_REQUESTEDFOR": "Jane", "BUILD_SOURCEBRANCH": "refs/pull/3/merge",
			"SYSTEM_PULLREQUEST_SOURCEBRANCH": "refs/heads/pr-src", "SYSTEM_PULLREQUEST_SOURCECOMMITID": "a3", "BUILD_SOURCEVERSION": "merge",
			"BUILD_REPOSITORY_NAME": "shop"},
			Meta{"Jane", "pr-src", "a3", "", "shop"}},
		{"Jenkins", map[string]string{"JENKINS_URL": "https://ci.example.com/", "GIT_BRANCH": "origin/release", "GIT_COMMIT": "j1",
			"GIT_URL": "https://bot:s3cret@git.example.com/acme/shop.git", "GIT_AUTHOR_NAME": "Jen Kins"},
			Meta{"Jen Kins", "release", "j1", "", "acme/shop"}},
		{"Jenkins", map[string]string{"JENKINS_URL": "https://ci.example.com/", "BRANCH_NAME": "PR-4", "CHANGE_BRANCH": "feat", "GIT_BRANCH": "origin/x",
			"GIT_COMMIT": "j2", "GIT_URL": "git@git.example.com:acme/shop.git", "CHANGE_AUTHOR": "octo", "BUILD_USER_ID": "admin"},
			Meta{"admin", "feat", "j2", "", "acme/shop"}},
		{"Buildkite", map[string]string{"BUILDKITE": "true", "BUILDKITE_BUILD_CREATOR": "Kite", "BUILDKITE_BRANCH": "main",
			"BUILDKITE_COMMIT": "b1", "BUILDKITE_MESSAGE": "Kite msg", "BUILDKITE_REPO": "git@github.com:acme/shop.git"},
			Meta{"Kite", "main", "b1", "Kite msg", "acme/shop"}},
		{"Buildkite", map[string]string{"BUILDKITE": "true", "BUILDKITE_BUILD_AUTHOR": "Auth", "BUILDKITE_BRANCH": "main",
			"BUILDKITE_COMMIT": "HEAD", "BUILDKITE_REPO": "https://github.com/acme/shop"},
			Meta{"Auth", "main", "", "", "acme/shop"}},
		{"", map[string]string{"CI": "true", "GITHUB_ACTIONS": "false"}, Meta{}},
	}
	for _, tt := range tests {
		name, got := DetectCI(lookupIn(tt.env))
		if name != tt.provider || got != tt.want {
			t.Errorf("DetectCI(%v) =\n  %q %+v\nwant\n  %q %+v", tt.env, name, got, tt.provider, tt.want)
		}
	}
}

func TestDetectCIUnreadableEventFile(t *testing.T) {
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_ACTOR": "octocat", "GITHUB_SHA": "abc", "GITHUB_EVENT_PATH": "/nonexistent/event.json"}
	if _, got := DetectCI(lookupIn(env)); got.Commit != "abc" || got.CommitMessage != "" {
		t.Errorf("got %+v", got)
	}
}

func TestRepositoryName(t *testing.T) {
	for in, want := range map[string]string{
		"acme/shop": "acme/shop", "https://github.com/acme/shop.git": "acme/shop",
		"https://x-token:ghp_secret@github.com/acme/shop.git": "acme/shop", "git@github.com:acme/shop.git": "acme/shop",
		"ssh://git@host:2222/acme/shop/": "acme/shop", "github.com:acme/shop": "acme/shop", "": "",
		"https://user:p%zz@host/x": "",
	} {
		if got := RepositoryName(in); got != want {
			t.Errorf("RepositoryName(%q) = %q, want %q", in, got, want)
		}
	}
}

// fakeGit answers fixed commands and records what was asked.
type fakeGit struct {
	answers map[string]string
	asked   []string
}

func (g *fakeGit) run(_ context.Context, args ...string) (string, error) {
	key := strings.Join(args, " ")
	g.asked = append(g.asked, key)
	if v, ok := g.answers[key]; ok {
		return v, nil
	}
	return "", errors.New("fatal: not a git repository")
}

func TestGitCodehostFillsOnlyMissingFields(t *testing.T) {
	g := &fakeGit{answers: map[string]string{
		"rev-parse --abbrev-ref HEAD": "topic", "rev-parse HEAD": "0123456789abcdef",
		"log -1 --format=%B 0123456789abcdef --": "Local message", "log -1 --format=%B cafebabe --": "CI commit message",
		"config user.name": "Local User", "config --get remote.origin.url": "https://tok@github.com/acme/local.git",
	}}
	got := FromGit(context.Background(), g.run, Meta{})
	want := Meta{"Local User", "topic", "0123456789abcdef", "Local message", "acme/local"}
	if got != want {
		t.Errorf("from nothing: %+v, want %+v", got, want)
	}

	// The message is read for the commit CI named, not for HEAD.
	g.asked = nil
	got = FromGit(context.Background(), g.run, Meta{Actor: "ci", Branch: "main", Commit: "cafebabe", Repository: "acme/shop"})
	if got.CommitMessage != "CI commit message" || len(g.asked) != 1 {
		t.Errorf("message of CI's commit: %+v, asked %v", got, g.asked)
	}

	// Complete metadata never runs git; a detached HEAD names no branch.
	g.asked = nil
	full := Meta{"a", "b", "c", "d", "e"}
	if FromGit(context.Background(), g.run, full) != full || len(g.asked) != 0 {
		t.Errorf("git was asked %v", g.asked)
	}
	g.answers["rev-parse --abbrev-ref HEAD"] = "HEAD"
	if got := FromGit(context.Background(), g.run, Meta{}); got.Branch != "" {
		t.Errorf("detached HEAD gave branch %q", got.Branch)
	}

	// A commit that could be read as an option never reaches git.
	g.asked = nil
	FromGit(context.Background(), g.run, Meta{Commit: "--output=/tmp/x"})
	for _, a := range g.asked {
		if strings.Contains(a, "--output") {
			t.Errorf("git was passed %q", a)
		}
	}
}

func TestResolveCodehostExplicitWins(t *testing.T) {
	env := map[string]string{"GITLAB_CI": "true", "GITLAB_USER_LOGIN": "jdoe", "CI_COMMIT_BRANCH": "develop",
		"CI_COMMIT_SHA": "def456", "CI_COMMIT_MESSAGE": "Bump", "CI_PROJECT_PATH": "acme/shop"}
	g := &fakeGit{}
	d := Resolve(context.Background(), lookupIn(env), g.run, Meta{Branch: "override"})
	if d.Meta != (Meta{"jdoe", "override", "def456", "Bump", "acme/shop"}) || d.Source != "GitLab CI" || len(g.asked) != 0 {
		t.Errorf("got %+v, git asked %v", d, g.asked)
	}
	d = Resolve(context.Background(), lookupIn(nil), g.run, Meta{})
	got := d.Meta
	if got.MissingFlags() == nil || d.Source != "" || d.InCI || !d.NoCheckout {
		t.Errorf("outside CI and git: %+v", d)
	}
	if m := strings.Join(got.MissingFlags(), " "); m != "--actor --branch --commit --commit-message --repository" {
		t.Errorf("MissingFlags = %s", m)
	}
}

func TestRunGitInARealRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipped: git is not installed (Debian's git)")
	}
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "trunk"}, {"config", "user.name", "Repo User"}, {"config", "user.email", "u@example.com"},
		{"remote", "add", "origin", "https://user:token@example.com/acme/real.git"}, {"commit", "-q", "--allow-empty", "-m", "First commit"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	t.Chdir(dir)
	got := FromGit(context.Background(), RunGit, Meta{})
	if got.Actor != "Repo User" || got.Branch != "trunk" || len(got.Commit) != 40 || got.CommitMessage != "First commit" || got.Repository != "acme/real" {
		t.Errorf("got %+v", got)
	}
}

// git, and the hooks and helpers it runs, never see testctl's variables:
// TESTCTL_API_KEY least of all. A git that writes its environment down
// stands in for the real one.
func TestRunGitDoesNotPassTestctlsVariables(t *testing.T) {
	dir := t.TempDir()
	envFile := filepath.Join(dir, "env")
	script := "#!/bin/sh\nenv > \"$GIT_ENV_OUT\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("GIT_ENV_OUT", envFile)
	t.Setenv("TESTCTL_API_KEY", "sk-LEAKCHECK-1234567890")
	t.Setenv("TESTCTL_PROFILE", "ci")
	if _, err := RunGit(context.Background(), "rev-parse", "HEAD"); err != nil {
		t.Fatal(err)
	}
	env, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(env), "TESTCTL_") || strings.Contains(string(env), "LEAKCHECK") {
		t.Errorf("git got testctl's variables:\n%s", env)
	}
	if !strings.Contains(string(env), "GIT_TERMINAL_PROMPT=0") || !strings.Contains(string(env), "GIT_ENV_OUT=") {
		t.Errorf("git lost the rest of the environment:\n%s", env)
	}
}

// The patterns are compiled on first use, so that start-up pays only for those
// a command line evaluates; compiling each one here makes a mistyped pattern
// fail the tests rather than the first command that reaches it.
func TestPatternsCompile(t *testing.T) {
	for _, rx := range []func() *regexp.Regexp{commitPattern} {
		rx()
	}
}

// writeEvent writes a GitHub event file and returns its path.
func writeEvent(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The events and pipelines whose metadata is incomplete: what each gives.
func TestDetectCIPerEvent(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Meta
	}{
		{"GitHub tag push", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_ACTOR": "octocat",
			"GITHUB_REF": "refs/tags/v1.2.3", "GITHUB_REF_NAME": "v1.2.3", "GITHUB_REF_TYPE": "tag", "GITHUB_SHA": "abc123", "GITHUB_REPOSITORY": "acme/shop",
			"GITHUB_EVENT_PATH": writeEvent(t, `{"ref":"refs/tags/v1.2.3","head_commit":{"id":"abc123","message":"Release 1.2.3"}}`)},
			Meta{"octocat", "v1.2.3", "abc123", "Release 1.2.3", "acme/shop"}},
		{"GitHub ref name only", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_REF_NAME": "v2", "GITHUB_REF_TYPE": "tag", "GITHUB_SHA": "abc"},
			Meta{Branch: "v2", Commit: "abc"}},
		{"GitHub workflow_dispatch", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "workflow_dispatch",
			"GITHUB_REF": "refs/heads/main", "GITHUB_SHA": "abc", "GITHUB_EVENT_PATH": writeEvent(t,
				`{"ref":"refs/heads/main","inputs":{"x":"1"},"repository":{"full_name":"acme/shop","default_branch":"main"},"sender":{"login":"hubot"}}`)},
			Meta{"hubot", "main", "abc", "", "acme/shop"}},
		{"GitHub schedule without a ref", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "schedule", "GITHUB_SHA": "abc",
			"GITHUB_ACTOR": "octocat", "GITHUB_REPOSITORY": "acme/shop",
			"GITHUB_EVENT_PATH": writeEvent(t, `{"schedule":"0 3 * * *","repository":{"default_branch":"trunk"}}`)},
			Meta{"octocat", "trunk", "abc", "", "acme/shop"}},
		{"GitHub the ref of a push's event", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": "abc",
			"GITHUB_EVENT_PATH": writeEvent(t, `{"ref":"refs/heads/dev","head_commit":{"id":"abc","message":"m"}}`)},
			Meta{Branch: "dev", Commit: "abc", CommitMessage: "m"}},
		{"GitHub pull request head ref from the event", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_REF": "refs/pull/7/merge", "GITHUB_SHA": "merge1",
			"GITHUB_EVENT_PATH": writeEvent(t, `{"pull_request":{"title":"Add coupons","head":{"ref":"coupons","sha":"feedface"}}}`)},
			Meta{Branch: "coupons", Commit: "feedface", CommitMessage: "Add coupons"}},
		{"GitHub merge queue", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_REF": "refs/heads/gh-readonly-queue/main/pr-7-abc", "GITHUB_SHA": "mg1",
			"GITHUB_EVENT_PATH": writeEvent(t, `{"merge_group":{"head_sha":"mg1","head_commit":{"message":"Merge pull request #7"}}}`)},
			Meta{Branch: "gh-readonly-queue/main/pr-7-abc", Commit: "mg1", CommitMessage: "Merge pull request #7"}},
		{"GitHub deployment_status of a branch", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "deployment_status", "GITHUB_SHA": "local1",
			"GITHUB_EVENT_PATH": writeEvent(t, `{"deployment":{"sha":"d1d1d1d1","ref":"coupons","environment":"Preview"},"deployment_status":{"state":"success"}}`)},
			Meta{Branch: "coupons", Commit: "d1d1d1d1"}},
		{"GitHub deployment_status of a commit", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "deployment_status", "GITHUB_SHA": "d1d1d1d1",
			"GITHUB_EVENT_PATH": writeEvent(t, `{"deployment":{"sha":"d1d1d1d1","ref":"d1d1d1d1","environment":"Preview"}}`)},
			Meta{Commit: "d1d1d1d1"}},
		{"GitHub deployment_status of a tag", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "deployment_status", "GITHUB_REF": "refs/tags/v9", "GITHUB_SHA": "e2",
			"GITHUB_EVENT_PATH": writeEvent(t, `{"deployment":{"sha":"e2","ref":"v9"}}`)},
			Meta{Branch: "v9", Commit: "e2"}},
		{"GitLab tag pipeline", map[string]string{"GITLAB_CI": "true", "GITLAB_USER_LOGIN": "jdoe", "CI_COMMIT_TAG": "v1.2.3",
			"CI_COMMIT_REF_NAME": "v1.2.3", "CI_COMMIT_SHA": "def456", "CI_COMMIT_TITLE": "Release", "CI_PROJECT_PATH": "acme/shop"},
			Meta{"jdoe", "v1.2.3", "def456", "Release", "acme/shop"}},
		{"GitLab ref name only", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_REF_NAME": "nightly", "CI_COMMIT_SHA": "d"},
			Meta{Branch: "nightly", Commit: "d"}},
		{"GitLab merged results", map[string]string{"GITLAB_CI": "true", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "coupons",
			"CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": "head1", "CI_COMMIT_SHA": "merged1", "CI_COMMIT_MESSAGE": "Merge branch 'coupons'",
			"CI_MERGE_REQUEST_TITLE": "Add coupons"},
			Meta{Branch: "coupons", Commit: "head1", CommitMessage: "Add coupons"}},
		{"Azure tag", map[string]string{"TF_BUILD": "True", "BUILD_SOURCEBRANCH": "refs/tags/v3", "BUILD_SOURCEVERSION": "a"},
			Meta{Branch: "v3", Commit: "a"}},
		{"CircleCI tag", map[string]string{"CIRCLECI": "true", "CIRCLE_TAG": "v4", "CIRCLE_SHA1": "c"}, Meta{Branch: "v4", Commit: "c"}},
		{"Bitbucket tag", map[string]string{"BITBUCKET_BUILD_NUMBER": "1", "BITBUCKET_TAG": "v5", "BITBUCKET_COMMIT": "b"}, Meta{Branch: "v5", Commit: "b"}},
		{"Jenkins tag", map[string]string{"JENKINS_URL": "https://ci/", "TAG_NAME": "v6", "GIT_COMMIT": "j"}, Meta{Branch: "v6", Commit: "j"}},
		{"Buildkite tag", map[string]string{"BUILDKITE": "true", "BUILDKITE_TAG": "v7", "BUILDKITE_COMMIT": "k"}, Meta{Branch: "v7", Commit: "k"}},
	}
	for _, tt := range tests {
		if _, got := DetectCI(lookupIn(tt.env)); got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

// Any CI says so, recognised or not; only CI=false or 0 does not.
func TestResolveInCI(t *testing.T) {
	g := &fakeGit{}
	for env, want := range map[string]bool{"CI=true": true, "CI=1": true, "CI=woodpecker": true, "CI=false": false, "CI=0": false, "CI=": false,
		"GITLAB_CI=true": true} {
		k, v, _ := strings.Cut(env, "=")
		if d := Resolve(context.Background(), lookupIn(map[string]string{k: v}), g.run, Meta{}); d.InCI != want {
			t.Errorf("%s: InCI %v", env, d.InCI)
		}
	}
	d := Resolve(context.Background(), lookupIn(map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "schedule"}), g.run, Meta{})
	if d.CI != "GitHub Actions" || d.Event != "schedule" || !d.NoCheckout {
		t.Errorf("%+v", d)
	}
}

// A detached HEAD at a tag (a tag's checkout) names the tag; at no tag,
// nothing.
func TestFromGitDetachedHEAD(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("skipped: git is not installed (Debian's git)")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("config", "user.name", "Repo User")
	git("config", "user.email", "u@example.com")
	git("commit", "-q", "--allow-empty", "-m", "Release 1.2.3")
	git("tag", "v1.2.3")
	git("tag", "v1.10.0")
	git("commit", "-q", "--allow-empty", "-m", "After")
	t.Chdir(dir)
	git("checkout", "-q", "--detach", "v1.2.3")
	if got := FromGit(context.Background(), RunGit, Meta{}); got.Branch != "v1.10.0" || got.CommitMessage != "Release 1.2.3" {
		t.Errorf("at two tags: %+v", got)
	}
	git("checkout", "-q", "--detach", "main")
	if got := FromGit(context.Background(), RunGit, Meta{}); got.Branch != "" || got.CommitMessage != "After" {
		t.Errorf("at no tag: %+v", got)
	}
}
