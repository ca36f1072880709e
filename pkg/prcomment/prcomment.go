// Package prcomment keeps one comment of testctl's on a pull request
// (GitHub) or merge request (GitLab): it finds the pull request the CI job
// runs for, finds the comment an earlier run of the same job left there by
// its hidden marker and the token's own identity, and edits it, or creates
// it when there is none. What the comment says is the caller's; this
// package only puts it in place.
//
// It never decides an exit code: where it cannot write the comment (not a
// pull request, no token, a fork's read-only token, the API failing or
// slow) it returns an *Unavailable that says why and what would fix it.
package prcomment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultTimeout bounds the whole of keeping the comment (listing the
// comments, then one edit or creation), so a hung API never holds up the
// job. TESTCTL_COMMENT_TIMEOUT (a hidden setting) changes it.
const DefaultTimeout = 10 * time.Second

// maxPages bounds the listing: 100 comments a page, 50 pages.
const maxPages = 50

// perPage is the page size asked for; a shorter page is the last.
const perPage = 100

// Env is what the comment is made from: the CI's environment (the
// pull request, the token, the API's address) and, for --debug, where the
// requests are traced (the token redacted). The client of the code host's
// API is always the package's own, which follows no redirect elsewhere.
type Env struct {
	Getenv func(string) string
	// Debug, when set, gets a line per request and per answer.
	Debug io.Writer
}

// Unavailable is why no comment was written, and what would fix it. It is
// never the job's failure: the comment is opt-in decoration.
type Unavailable struct {
	Why string
	Fix string
}

func (e *Unavailable) Error() string {
	if e.Fix == "" {
		return e.Why
	}
	return e.Why + ". " + e.Fix
}

// Thread is the pull request or merge request the comment goes on.
type Thread struct {
	// Kind is "pull request" or "merge request", for messages.
	Kind string
	// MaxBody is the longest body Keep accepts: the code host's limit,
	// less the marker. It counts bytes, never fewer than the characters
	// the code host counts.
	MaxBody int
	// RunURL is the page of the CI run that writes the comment, RunName
	// what the CI calls it, and ArtifactsURL where its artefacts are
	// listed; "" when unknown.
	RunURL, RunName, ArtifactsURL string
	marker                        string
	host                          host
	timeout                       time.Duration
}

// Kept is the comment written.
type Kept struct {
	URL     string
	Created bool // false: an earlier run's comment was edited
}

// host is one code host's comments API.
type host interface {
	name() string // "GitHub", "GitLab"
	// list reads a page of the thread's comments, oldest first, from
	// cursor ("" for the first page), each marked mine when the token's
	// own identity wrote it; next is "" after the last page. Where who
	// the token is cannot be read, the error is an *identityError.
	list(ctx context.Context, cursor string) (page []comment, next string, err error)
	edit(ctx context.Context, c comment, body string) (string, error)
	create(ctx context.Context, body string) (string, error)
	// refused explains an answer of 401, 403 or 404: the token's rights.
	refused(status int) string
}

// comment is one comment of the thread as the listing gives it.
type comment struct {
	id   string
	body string
	url  string
	mine bool // written by the token's own identity
}

// identityError is a failure to read who the token is, while doing what
// it says: without it no comment can be told to be testctl's own.
type identityError struct {
	doing string
	err   error
}

func (e *identityError) Error() string { return e.err.Error() }
func (e *identityError) Unwrap() error { return e.err }

// Kind is what the comment goes on where getenv says the job runs: a
// "merge request" under GitLab CI, else a "pull request".
func Kind(getenv func(string) string) string {
	if getenv("GITHUB_ACTIONS") != "true" && getenv("GITLAB_CI") == "true" {
		return "merge request"
	}
	return "pull request"
}

// Locate finds the pull request or merge request the CI job runs for, and
// the token to write on it. An *Unavailable says why there is none.
func Locate(env Env) (*Thread, error) {
	getenv := env.Getenv
	timeout := DefaultTimeout
	if raw := getenv("TESTCTL_COMMENT_TIMEOUT"); raw != "" {
		d, err := time.ParseDuration(raw)
		if err != nil || d <= 0 {
			return nil, &Unavailable{Why: fmt.Sprintf("TESTCTL_COMMENT_TIMEOUT (%q) is not a positive duration", raw),
				Fix: "Set it like 10s, or unset it for the default"}
		}
		timeout = d
	}
	var t *Thread
	var err error
	switch {
	case getenv("GITHUB_ACTIONS") == "true":
		t, err = locateGitHub(env)
	case getenv("GITLAB_CI") == "true":
		t, err = locateGitLab(env)
	default:
		return nil, &Unavailable{
			Why: "--comment writes to a pull request under GitHub Actions or a merge request under GitLab CI, and this is neither",
			Fix: "Drop --comment outside them"}
	}
	if err != nil {
		return nil, err
	}
	t.timeout = timeout
	return t, nil
}

// Keep puts body on the thread: it edits the comment an earlier run of the
// same job left (the first one carrying its marker that the token's own
// identity wrote, as gh's --edit-last edits only the viewer's), or creates
// one. Every later run edits that one; no second is ever made while it can
// be found, and nobody else's comment is ever edited. The whole of it is
// bounded by the timeout.
func (t *Thread) Keep(ctx context.Context, body string) (Kept, error) {
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	if len(body) > t.MaxBody {
		return Kept{}, &Unavailable{Why: fmt.Sprintf("the comment is %d bytes, more than the %d %s takes", len(body), t.MaxBody, t.host.name())}
	}
	body = t.marker + "\n" + body
	cursor := ""
	for range maxPages {
		comments, next, err := t.host.list(ctx, cursor)
		if err != nil {
			return Kept{}, t.listFailed(err)
		}
		for _, c := range comments {
			if c.mine && t.marked(c.body) {
				u, err := t.host.edit(ctx, c, body)
				if err != nil {
					return Kept{}, t.explain("edit its comment", err)
				}
				return Kept{URL: u}, nil
			}
		}
		if next == "" {
			u, err := t.host.create(ctx, body)
			if err != nil {
				return Kept{}, t.explain("comment", err)
			}
			return Kept{URL: u, Created: true}, nil
		}
		cursor = next
	}
	// Creating one now could make a second: say so instead.
	return Kept{}, &Unavailable{
		Why: fmt.Sprintf("the %s has more than %d comments, and testctl's was not among the first %[2]d", t.Kind, maxPages*perPage),
		Fix: "The comment is left as it was"}
}

// marked reports whether a comment carries this job's marker as its first
// line. Anywhere else (quoted, in a code span) it is someone else's text;
// and it is this job's comment only when the token's identity wrote it.
func (t *Thread) marked(body string) bool {
	first, _, _ := strings.Cut(body, "\n")
	return strings.TrimSpace(first) == t.marker
}

// listFailed says why the comments could not be read. Where it is who the
// token is, no comment can be told to be testctl's own: every one is left
// alone, and none is created beside one that may be ours.
func (t *Thread) listFailed(err error) *Unavailable {
	var ie *identityError
	if !errors.As(err, &ie) {
		return t.explain("read the "+t.Kind+"'s comments", err)
	}
	u := t.explain(ie.doing, ie.err)
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		u.Why += ": no comment can be told to be testctl's own, so every comment is left alone"
	}
	return u
}

// explain turns a failed request into an *Unavailable that names the fix.
func (t *Thread) explain(doing string, err error) *Unavailable {
	name := t.host.name()
	var he *httpError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &Unavailable{Why: fmt.Sprintf("%s did not answer within %s", name, t.timeout),
			Fix: "The next run updates the comment"}
	case errors.Is(err, context.Canceled):
		return &Unavailable{Why: "interrupted before the comment was written"}
	case errors.As(err, &he) && (he.status == http.StatusUnauthorized || he.status == http.StatusForbidden || he.status == http.StatusNotFound):
		return &Unavailable{Why: fmt.Sprintf("%s refused to %s (%s)", name, doing, he), Fix: t.host.refused(he.status)}
	case errors.As(err, &he):
		return &Unavailable{Why: fmt.Sprintf("%s failed to %s (%s)", name, doing, he), Fix: "The next run updates the comment"}
	}
	return &Unavailable{Why: fmt.Sprintf("could not %s on %s: %v", doing, name, err), Fix: "The next run updates the comment"}
}

// markerFor is the hidden first line that tells this job's comment from
// any other: two workflows, two jobs, or two keys (TESTCTL_COMMENT_KEY, for
// a matrix's legs) each keep their own. The parts are escaped, so nothing
// in them can end the HTML comment early.
func markerFor(parts ...string) string {
	var scope []string
	for _, p := range parts {
		if p != "" {
			scope = append(scope, url.PathEscape(p))
		}
	}
	return "<!-- testctl:comment " + strings.Join(scope, " ") + " -->"
}
