package codehost

import (
	"cmp"
	"encoding/json"
	"os"
	"strings"
)

// CIProviders lists the CI services whose variables DetectCI reads.
const CIProviders = "GitHub Actions, GitLab CI, Bitbucket Pipelines, CircleCI, Azure Pipelines, Jenkins and Buildkite"

// DetectCI reads the metadata a CI service puts in the environment. It
// returns the service's name ("" when none is recognised) and what it
// found, trimmed of surrounding white space; fields a service does not
// publish (the commit message on several) stay empty for local git to fill.
func DetectCI(lookup func(string) (string, bool)) (string, Meta) {
	name, c := detectCI(lookup)
	// Trimmed again as a whole: stripping a prefix such as refs/heads/
	// from a trimmed value can leave white space at its start.
	return name, Meta{Actor: strings.TrimSpace(c.Actor), Branch: strings.TrimSpace(c.Branch),
		Commit: strings.TrimSpace(c.Commit), CommitMessage: strings.TrimSpace(c.CommitMessage),
		Repository: strings.TrimSpace(c.Repository)}
}

func detectCI(lookup func(string) (string, bool)) (string, Meta) {
	env := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := lookup(k); ok && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	is := func(key, want string) bool { return strings.EqualFold(env(key), want) }
	switch {
	case is("GITHUB_ACTIONS", "true"):
		return "GitHub Actions", gitHubActions(env)
	case is("GITLAB_CI", "true"):
		return "GitLab CI", Meta{
			Actor:         env("GITLAB_USER_LOGIN", "GITLAB_USER_NAME"),
			Branch:        env("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_BRANCH"),
			Commit:        env("CI_COMMIT_SHA"),
			CommitMessage: env("CI_COMMIT_MESSAGE"),
			Repository:    env("CI_PROJECT_PATH"),
		}
	case env("BITBUCKET_BUILD_NUMBER") != "":
		return "Bitbucket Pipelines", Meta{
			// Bitbucket publishes only the triggering user's UUID.
			Actor:      env("BITBUCKET_STEP_TRIGGERER_UUID"),
			Branch:     env("BITBUCKET_BRANCH"),
			Commit:     env("BITBUCKET_COMMIT"),
			Repository: env("BITBUCKET_REPO_FULL_NAME"),
		}
	case is("CIRCLECI", "true"):
		repo := RepositoryName(env("CIRCLE_REPOSITORY_URL"))
		if owner, name := env("CIRCLE_PROJECT_USERNAME"), env("CIRCLE_PROJECT_REPONAME"); owner != "" && name != "" {
			repo = owner + "/" + name
		}
		return "CircleCI", Meta{Actor: env("CIRCLE_USERNAME"), Branch: env("CIRCLE_BRANCH"), Commit: env("CIRCLE_SHA1"), Repository: repo}
	case is("TF_BUILD", "true"):
		return "Azure Pipelines", Meta{
			Actor:         env("BUILD_REQUESTEDFOR"),
			Branch:        branchFromRef(env("SYSTEM_PULLREQUEST_SOURCEBRANCH", "BUILD_SOURCEBRANCH")),
			Commit:        env("SYSTEM_PULLREQUEST_SOURCECOMMITID", "BUILD_SOURCEVERSION"),
			CommitMessage: env("BUILD_SOURCEVERSIONMESSAGE"),
			Repository:    env("BUILD_REPOSITORY_NAME"),
		}
	case env("JENKINS_URL") != "":
		// GIT_* come from the Git plugin, CHANGE_* and BRANCH_NAME from
		// multibranch pipelines, BUILD_USER* from the build-user-vars plugin.
		return "Jenkins", Meta{
			Actor:      env("BUILD_USER_ID", "BUILD_USER", "CHANGE_AUTHOR", "GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"),
			Branch:     jenkinsBranch(env),
			Commit:     env("GIT_COMMIT"),
			Repository: RepositoryName(env("GIT_URL")),
		}
	case is("BUILDKITE", "true"):
		commit := env("BUILDKITE_COMMIT")
		if commit == "HEAD" { // Buildkite's placeholder until the checkout resolves it
			commit = ""
		}
		return "Buildkite", Meta{
			Actor:         env("BUILDKITE_BUILD_CREATOR", "BUILDKITE_BUILD_AUTHOR"),
			Branch:        env("BUILDKITE_BRANCH"),
			Commit:        commit,
			CommitMessage: env("BUILDKITE_MESSAGE"),
			Repository:    RepositoryName(env("BUILDKITE_REPO")),
		}
	}
	return "", Meta{}
}

// gitHubActions reads the variables of a workflow run and, for what they
// lack (the commit message, a pull request's head commit), its event file.
func gitHubActions(env func(...string) string) Meta {
	c := Meta{
		Actor:      env("GITHUB_TRIGGERING_ACTOR", "GITHUB_ACTOR"),
		Branch:     env("GITHUB_HEAD_REF"), // set for pull requests only
		Commit:     env("GITHUB_SHA"),
		Repository: env("GITHUB_REPOSITORY"),
	}
	if ref := env("GITHUB_REF"); c.Branch == "" && strings.HasPrefix(ref, "refs/heads/") {
		c.Branch = strings.TrimPrefix(ref, "refs/heads/")
	}
	var event struct {
		HeadCommit *struct {
			Message string `json:"message"`
		} `json:"head_commit"`
		PullRequest *struct {
			Title string `json:"title"`
			Head  struct {
				SHA string `json:"sha"`
			} `json:"head"`
		} `json:"pull_request"`
	}
	data, err := os.ReadFile(env("GITHUB_EVENT_PATH")) // none: an error too
	if err != nil || json.Unmarshal(data, &event) != nil {
		return c // the variables alone still give most fields
	}
	if event.HeadCommit != nil {
		c.CommitMessage = strings.TrimSpace(event.HeadCommit.Message)
	}
	// On a pull request GITHUB_SHA is a merge commit nobody wrote; the
	// head commit is the one the author pushed.
	if pr := event.PullRequest; pr != nil {
		c.Commit = cmp.Or(pr.Head.SHA, c.Commit)
		c.CommitMessage = cmp.Or(c.CommitMessage, strings.TrimSpace(pr.Title))
	}
	return c
}

// jenkinsBranch prefers the names without a remote; GIT_BRANCH is
// "origin/main" on a plain Git plugin checkout.
func jenkinsBranch(env func(...string) string) string {
	if b := env("CHANGE_BRANCH", "BRANCH_NAME", "GIT_LOCAL_BRANCH"); b != "" {
		return b
	}
	return strings.TrimPrefix(env("GIT_BRANCH"), "origin/")
}

// branchFromRef turns refs/heads/x into x; other refs (tags, pull request
// merge refs) name no branch.
func branchFromRef(ref string) string {
	if strings.HasPrefix(ref, "refs/heads/") {
		return strings.TrimPrefix(ref, "refs/heads/")
	}
	if strings.HasPrefix(ref, "refs/") {
		return ""
	}
	return ref
}
