package codehost

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"

	"github.com/testctl/testctl/pkg/userfile"
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
		return "GitLab CI", gitLabCI(env)
	case env("BITBUCKET_BUILD_NUMBER") != "":
		return "Bitbucket Pipelines", Meta{
			// Bitbucket publishes only the triggering user's UUID.
			Actor:      env("BITBUCKET_STEP_TRIGGERER_UUID"),
			Branch:     env("BITBUCKET_BRANCH", "BITBUCKET_TAG"),
			Commit:     env("BITBUCKET_COMMIT"),
			Repository: env("BITBUCKET_REPO_FULL_NAME"),
		}
	case is("CIRCLECI", "true"):
		repo := RepositoryName(env("CIRCLE_REPOSITORY_URL"))
		if owner, name := env("CIRCLE_PROJECT_USERNAME"), env("CIRCLE_PROJECT_REPONAME"); owner != "" && name != "" {
			repo = owner + "/" + name
		}
		return "CircleCI", Meta{Actor: env("CIRCLE_USERNAME"), Branch: env("CIRCLE_BRANCH", "CIRCLE_TAG"), Commit: env("CIRCLE_SHA1"), Repository: repo}
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
			Branch:        env("BUILDKITE_BRANCH", "BUILDKITE_TAG"),
			Commit:        commit,
			CommitMessage: env("BUILDKITE_MESSAGE"),
			Repository:    RepositoryName(env("BUILDKITE_REPO")),
		}
	}
	return "", Meta{}
}

// gitHubActions reads the variables of a workflow run and, for what they
// lack, its event file. Every event has a ref and a commit (GITHUB_REF,
// GITHUB_SHA), but only a push has head_commit, and only a pull request
// its head; schedule and workflow_dispatch carry neither, so their commit
// message comes from a checkout, or not at all.
func gitHubActions(env func(...string) string) Meta {
	var event gitHubEvent
	if data, err := readEvent(env("GITHUB_EVENT_PATH")); err == nil { // none: an error too
		if json.Unmarshal(data, &event) != nil {
			event = gitHubEvent{} // the variables alone still give most fields
		}
	}
	c := Meta{
		Actor:      cmp.Or(env("GITHUB_TRIGGERING_ACTOR", "GITHUB_ACTOR"), strings.TrimSpace(event.Sender.Login)),
		Commit:     env("GITHUB_SHA"),
		Repository: cmp.Or(env("GITHUB_REPOSITORY"), strings.TrimSpace(event.Repository.FullName)),
	}
	// A tag is a ref as a branch is: a tag push or a release sends the
	// tag's name, as GITHUB_REF_NAME has it, and `run list --branch v1.2.3`
	// finds its runs.
	ref := refName(env("GITHUB_REF"))
	if ref == "" && (env("GITHUB_REF_TYPE") == "branch" || env("GITHUB_REF_TYPE") == "tag") {
		ref = env("GITHUB_REF_NAME")
	}
	c.Branch = cmp.Or(env("GITHUB_HEAD_REF"), ref, refName(strings.TrimSpace(event.Ref)))
	if c.Branch == "" && env("GITHUB_EVENT_NAME") == "schedule" {
		// A schedule runs on the default branch's last commit.
		c.Branch = strings.TrimSpace(event.Repository.DefaultBranch)
	}
	// head_commit is a push's (GITHUB_SHA), merge_group.head_commit a
	// merge queue's.
	if hc := event.HeadCommit; hc != nil {
		c.Commit = cmp.Or(c.Commit, strings.TrimSpace(hc.ID))
		c.CommitMessage = strings.TrimSpace(hc.Message)
	}
	if mg := event.MergeGroup; mg != nil && mg.HeadCommit != nil {
		c.CommitMessage = cmp.Or(c.CommitMessage, strings.TrimSpace(mg.HeadCommit.Message))
	}
	// On a pull request GITHUB_SHA is a merge commit nobody wrote; the
	// head commit is the one the author pushed, and its message is not in
	// the event: the pull request's title stands for it.
	if pr := event.PullRequest; pr != nil {
		c.Branch = cmp.Or(c.Branch, strings.TrimSpace(pr.Head.Ref))
		if sha := strings.TrimSpace(pr.Head.SHA); sha != "" && sha != c.Commit {
			c.Commit, c.CommitMessage = sha, ""
		}
		c.CommitMessage = cmp.Or(c.CommitMessage, strings.TrimSpace(pr.Title))
	}
	if d := event.Deployment; d != nil && env("GITHUB_EVENT_NAME") == "deployment_status" {
		deployed(&c, d.SHA, d.Ref, env("GITHUB_REF"))
	}
	return c
}

// deployed is the commit a deployment_status event is about: the
// deployment's sha, and its ref as the branch only when it names one (a
// deployment made from a commit or a tag names none).
func deployed(c *Meta, sha, ref, githubRef string) {
	sha, ref = strings.TrimSpace(sha), strings.TrimSpace(ref)
	if sha == "" {
		return
	}
	if sha != c.Commit {
		c.Commit, c.CommitMessage = sha, ""
	}
	name, isHead := strings.CutPrefix(ref, "refs/heads/")
	switch {
	case isHead:
		c.Branch = name
	case ref == "", strings.HasPrefix(ref, "refs/"), githubRef == "refs/tags/"+ref,
		len(ref) >= 7 && strings.HasPrefix(sha, ref) && strings.Trim(ref, "0123456789abcdef") == "":
		// Not a branch: GITHUB_REF (the deployment's ref, a tag sent as
		// the branch as elsewhere, or none for a commit) stands.
	default:
		c.Branch = ref
	}
}

// maxEvent bounds the read of GitHub's event file (a push of many commits
// is the largest).
const maxEvent = 64 << 20

// readEvent reads GitHub's event file, a regular file the runner writes: a
// FIFO or device there is refused, not waited on.
func readEvent(path string) ([]byte, error) {
	return userfile.Read(context.Background(), path, userfile.Rule{Max: maxEvent, Regular: true})
}

// gitHubEvent holds the members of a workflow run's event file that
// --codehost reads; an event has only some of them.
type gitHubEvent struct {
	Ref        string `json:"ref"` // push, workflow_dispatch: refs/heads/x or refs/tags/x
	HeadCommit *struct {
		ID      string `json:"id"`
		Message string `json:"message"`
	} `json:"head_commit"` // push only
	PullRequest *struct {
		Title string `json:"title"`
		Head  struct {
			Ref string `json:"ref"`
			SHA string `json:"sha"`
		} `json:"head"`
	} `json:"pull_request"`
	Deployment *struct {
		SHA string `json:"sha"`
		Ref string `json:"ref"`
	} `json:"deployment"` // deployment and deployment_status
	MergeGroup *struct {
		HeadSHA    string `json:"head_sha"`
		HeadCommit *struct {
			Message string `json:"message"`
		} `json:"head_commit"`
	} `json:"merge_group"`
	Repository struct {
		FullName      string `json:"full_name"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	Sender struct {
		Login string `json:"login"`
	} `json:"sender"`
}

// gitLabCI reads the predefined variables of a GitLab job. A tag pipeline
// has CI_COMMIT_TAG and no CI_COMMIT_BRANCH; a merge request pipeline has
// the source branch; CI_COMMIT_REF_NAME, the branch or tag, is always set.
func gitLabCI(env func(...string) string) Meta {
	c := Meta{
		Actor:         env("GITLAB_USER_LOGIN", "GITLAB_USER_NAME"),
		Branch:        env("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_BRANCH", "CI_COMMIT_TAG", "CI_COMMIT_REF_NAME"),
		Commit:        env("CI_COMMIT_SHA"),
		CommitMessage: env("CI_COMMIT_MESSAGE", "CI_COMMIT_TITLE"),
		Repository:    env("CI_PROJECT_PATH"),
	}
	// A merged results pipeline tests a merge commit GitLab made; the
	// source branch's head is the commit the author pushed (as for a
	// GitHub pull request), and the merge request's title stands for its
	// message. The variable is empty in other pipelines.
	if sha := env("CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"); sha != "" && sha != c.Commit {
		c.Commit, c.CommitMessage = sha, env("CI_MERGE_REQUEST_TITLE")
	}
	return c
}

// jenkinsBranch prefers the names without a remote; GIT_BRANCH is
// "origin/main" on a plain Git plugin checkout.
func jenkinsBranch(env func(...string) string) string {
	if b := env("CHANGE_BRANCH", "BRANCH_NAME", "GIT_LOCAL_BRANCH"); b != "" {
		return b
	}
	// TAG_NAME: a multibranch pipeline's tag build.
	return cmp.Or(strings.TrimPrefix(env("GIT_BRANCH"), "origin/"), env("TAG_NAME"))
}

// branchFromRef turns refs/heads/x and refs/tags/x into x; other refs
// (pull request merge refs) name no branch; a name without refs/ is one.
func branchFromRef(ref string) string {
	if strings.HasPrefix(ref, "refs/") {
		return refName(ref)
	}
	return ref
}

// refName is the name of a branch or tag ref (refs/heads/x, refs/tags/x):
// a tag is sent as the branch, being the ref the commit was built from.
// Other refs (refs/pull/7/merge) and bare names give "".
func refName(ref string) string {
	for _, prefix := range []string{"refs/heads/", "refs/tags/"} {
		if name, ok := strings.CutPrefix(ref, prefix); ok {
			return name
		}
	}
	return ""
}
