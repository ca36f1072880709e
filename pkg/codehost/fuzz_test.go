package codehost

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzProviders maps each CI service to the variables DetectCI reads for
// actor, branch, commit, commit message and repository, plus the ones that
// make it recognise the service. urlRepo marks a repository variable that
// holds a clone URL, which may carry credentials.
var fuzzProviders = []struct {
	name                                 string
	detect                               map[string]string
	actor, branch, commit, message, repo string
	urlRepo                              bool
}{
	{"GitHub Actions", map[string]string{"GITHUB_ACTIONS": "true"}, "GITHUB_ACTOR", "GITHUB_REF", "GITHUB_SHA", "", "GITHUB_REPOSITORY", false},
	{"GitLab CI", map[string]string{"GITLAB_CI": "true"}, "GITLAB_USER_LOGIN", "CI_COMMIT_BRANCH", "CI_COMMIT_SHA", "CI_COMMIT_MESSAGE", "CI_PROJECT_PATH", false},
	{"Bitbucket Pipelines", map[string]string{"BITBUCKET_BUILD_NUMBER": "7"}, "BITBUCKET_STEP_TRIGGERER_UUID", "BITBUCKET_BRANCH", "BITBUCKET_COMMIT", "", "BITBUCKET_REPO_FULL_NAME", false},
	{"CircleCI", map[string]string{"CIRCLECI": "true"}, "CIRCLE_USERNAME", "CIRCLE_BRANCH", "CIRCLE_SHA1", "", "CIRCLE_REPOSITORY_URL", true},
	{"Azure Pipelines", map[string]string{"TF_BUILD": "True"}, "BUILD_REQUESTEDFOR", "BUILD_SOURCEBRANCH", "BUILD_SOURCEVERSION", "BUILD_SOURCEVERSIONMESSAGE", "BUILD_REPOSITORY_NAME", false},
	{"Jenkins", map[string]string{"JENKINS_URL": "https://ci.example.com/"}, "GIT_AUTHOR_NAME", "GIT_BRANCH", "GIT_COMMIT", "", "GIT_URL", true},
	{"Buildkite", map[string]string{"BUILDKITE": "true"}, "BUILDKITE_BUILD_CREATOR", "BUILDKITE_BRANCH", "BUILDKITE_COMMIT", "BUILDKITE_MESSAGE", "BUILDKITE_REPO", true},
}

// FuzzDetectCI feeds arbitrary values to the variables of each CI service
// (and, for GitHub Actions, an arbitrary event file) and checks what
// DetectCI and Resolve promise: no panic, every field trimmed of
// surrounding white space, and no credentials of a clone URL in the
// repository that is sent to the service.
func FuzzDetectCI(f *testing.F) {
	f.Add(uint8(0), "octocat", "refs/heads/main", "abc123", "", "acme/shop", []byte(`{"head_commit":{"message":"Fix\n\nbody"}}`))
	f.Add(uint8(0), " hubot ", "refs/pull/7/merge", "merge1", "", "acme/shop", []byte(`{"pull_request":{"title":" Add coupons ","head":{"sha":"feedface"}}}`))
	f.Add(uint8(1), "jdoe", "develop", "def456", "Bump deps\n", "acme/group/shop", []byte(nil))
	f.Add(uint8(3), "cc", "main", "c1", "", "https://bot:s3cret@github.com/acme/shop.git", []byte(nil))
	f.Add(uint8(4), "Jane Doe", "refs/heads/feature/x", "a2", "msg", "shop", []byte(nil))
	f.Add(uint8(5), "Jen", "origin/release", "j1", "", "git@git.example.com:acme/shop.git", []byte(nil))
	f.Add(uint8(6), "Kite", "main", "HEAD", "Kite msg", "ssh://git:t0ken@github.com/acme/shop", []byte(nil))
	f.Fuzz(func(t *testing.T, which uint8, actor, branch, commit, message, repo string, event []byte) {
		p := fuzzProviders[int(which)%len(fuzzProviders)]
		env := map[string]string{}
		for k, v := range p.detect {
			env[k] = v
		}
		for k, v := range map[string]string{p.actor: actor, p.branch: branch, p.commit: commit, p.message: message, p.repo: repo} {
			if k != "" {
				env[k] = v
			}
		}
		if p.name == "GitHub Actions" && event != nil {
			path := filepath.Join(t.TempDir(), "event.json")
			if err := os.WriteFile(path, event, 0o600); err != nil {
				t.Fatal(err)
			}
			env["GITHUB_EVENT_PATH"] = path
		}
		lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }

		name, got := DetectCI(lookup)
		if name != p.name {
			t.Fatalf("DetectCI recognised %q, want %q", name, p.name)
		}
		noGit := func(context.Context, ...string) (string, error) { return "", os.ErrNotExist }
		resolved := Resolve(context.Background(), lookup, noGit, Meta{}).Meta
		for _, c := range []Meta{got, resolved} {
			for field, v := range map[string]string{"actor": c.Actor, "branch": c.Branch, "commit": c.Commit,
				"commit message": c.CommitMessage, "repository": c.Repository} {
				if v != strings.TrimSpace(v) {
					t.Errorf("%s: %s %q is not trimmed", p.name, field, v)
				}
			}
		}
		if p.urlRepo {
			checkNoCredentials(t, repo, got.Repository)
		}
	})
}

// checkNoCredentials fails when the repository derived from a clone URL
// still holds the URL's user information.
func checkNoCredentials(t *testing.T, raw, repo string) {
	t.Helper()
	if strings.Contains(repo, "://") || strings.Contains(repo, "@") {
		t.Errorf("repository %q (from %q) still holds a URL or user information", repo, raw)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.User == nil {
		return
	}
	if pw, ok := u.User.Password(); ok && pw != "" && strings.Contains(repo, u.User.String()+"@") {
		t.Errorf("repository %q keeps the credentials of %q", repo, raw)
	}
}

// TestRepositoryNameDropsCredentials pins the clone URL forms that carry a
// secret: whatever the syntax, the token never reaches the request.
func TestRepositoryNameDropsCredentials(t *testing.T) {
	for _, raw := range []string{
		"https://bot:s3cret@github.com/acme/shop.git",
		"https://x-access-token:s3cret@github.com/acme/shop",
		"ssh://git:s3cret@github.com/acme/shop",
		"//bot:s3cret@github.com/acme/shop.git",
		"bot:s3cret@github.com/acme/shop.git",
		"git+ssh://bot:s3cret@github.com/acme/shop",
		"http://bot:s3cret@github.com:bad-port/acme/shop",
	} {
		if got := RepositoryName(raw); strings.Contains(got, "s3cret") {
			t.Errorf("RepositoryName(%q) = %q", raw, got)
		}
	}
}
