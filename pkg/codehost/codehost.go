// Package codehost finds the code-hosting metadata of a run (actor, branch,
// commit, commit message, repository) for `run start --codehost`: from the
// variables a CI service sets, then from the local git checkout.
package codehost

import (
	"net/url"
	"strings"
)

// Meta is the code-hosting metadata of a run: the five fields the
// service requires when the trigger is CODEHOST.
type Meta struct {
	Actor         string `json:"actor,omitempty"`
	Branch        string `json:"branch,omitempty"`
	Commit        string `json:"commitHash,omitempty"`
	CommitMessage string `json:"commitMessage,omitempty"`
	Repository    string `json:"repository,omitempty"`
}

// Fill returns c with its empty fields taken from other: the first source
// to know a field wins, so explicit flags go first, then CI, then git.
func (c Meta) Fill(other Meta) Meta {
	pick := func(a, b string) string {
		if strings.TrimSpace(a) != "" {
			return a
		}
		return b
	}
	return Meta{
		Actor: pick(c.Actor, other.Actor), Branch: pick(c.Branch, other.Branch), Commit: pick(c.Commit, other.Commit),
		CommitMessage: pick(c.CommitMessage, other.CommitMessage), Repository: pick(c.Repository, other.Repository),
	}
}

// MissingFlags names the flags of run start whose fields are still empty,
// in the order of the help text.
func (c Meta) MissingFlags() []string {
	var missing []string
	for _, f := range []struct{ flag, v string }{{"--actor", c.Actor}, {"--branch", c.Branch},
		{"--commit", c.Commit}, {"--commit-message", c.CommitMessage}, {"--repository", c.Repository}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.flag)
		}
	}
	return missing
}

// RepositoryName turns a clone URL into the "owner/name" path that the CI
// services publish (GITHUB_REPOSITORY, CI_PROJECT_PATH), so a repository is
// named the same whichever CI started the run. Credentials in the URL are
// dropped: they must never reach the service or a log.
func RepositoryName(remote string) string {
	remote = strings.TrimSpace(remote)
	if remote == "" {
		return ""
	}
	path := remote
	if u, err := url.Parse(remote); err == nil && u.Host != "" { // scheme-relative //host/… too
		path = u.Path
	} else if strings.Contains(remote, "://") || strings.HasPrefix(remote, "//") {
		return "" // an unparsable URL may still carry credentials
	} else if i := strings.Index(remote, ":"); i > 0 && !strings.Contains(remote[:i], "/") {
		path = remote[i+1:] // scp-like syntax: [user@]host:owner/name.git
	}
	if strings.Contains(path, "@") {
		// No code host allows @ in an owner or repository name: it is
		// user information the forms above did not separate (user:token@host/…).
		return ""
	}
	path = strings.TrimSuffix(strings.Trim(path, "/"), ".git")
	return strings.TrimSpace(path)
}
