package prcomment_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/testctl/testctl/pkg/prcomment"
	"github.com/testctl/testctl/pkg/prcomment/prcommenttest"
)

// envOf is a Getenv over vars.
func envOf(vars map[string]string) prcomment.Env {
	return prcomment.Env{Getenv: func(k string) string { return vars[k] }}
}

func gitHubVars(t *testing.T, gh *prcommenttest.Server) map[string]string {
	vars := map[string]string{}
	gh.GitHubEnv(func(k, v string) { vars[k] = v }, t.TempDir())
	return vars
}

// The pull request is found in each event that has one: an issue_comment
// on a pull request too, but not on an issue.
func TestLocateReadsThePullRequestOfTheEvent(t *testing.T) {
	for name, c := range map[string]struct {
		event, payload string
		number         int // 0: none
	}{
		"pull_request":          {"pull_request", `{"number":7,"pull_request":{"number":7}}`, 7},
		"pull_request_target":   {"pull_request_target", `{"pull_request":{"number":7}}`, 7},
		"issue_comment on a PR": {"issue_comment", `{"issue":{"number":7,"pull_request":{"url":"x"}}}`, 7},
		"issue_comment":         {"issue_comment", `{"issue":{"number":7}}`, 0},
		"push":                  {"push", `{"ref":"refs/heads/main","head_commit":{}}`, 0},
	} {
		t.Run(name, func(t *testing.T) {
			gh := prcommenttest.NewGitHub(t, "tok")
			vars := gitHubVars(t, gh)
			vars["GITHUB_EVENT_NAME"] = c.event
			path := filepath.Join(t.TempDir(), "event.json")
			if err := os.WriteFile(path, []byte(c.payload), 0o644); err != nil {
				t.Fatal(err)
			}
			vars["GITHUB_EVENT_PATH"] = path
			th, err := prcomment.Locate(envOf(vars))
			if c.number == 0 {
				var u *prcomment.Unavailable
				if !errors.As(err, &u) || !strings.Contains(u.Why, "for a "+c.event+" event, not a pull request") {
					t.Fatalf("want no pull request, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := th.Keep(context.Background(), "hello"); err != nil {
				t.Fatal(err)
			}
			if got := gh.Requests(); !strings.HasPrefix(got[len(got)-1], "POST /repos/octo/app/issues/7/comments") {
				t.Errorf("requests: %v", got)
			}
		})
	}
}

// A repository name that would change the API's path is refused before
// anything is sent, and so is a merge request iid that is not a number.
func TestLocateRefusesPathsThatAreNotNames(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	for _, repo := range []string{"octo/../admin", "octo/app/x", "octo", "octo/app?x=1", "../app"} {
		vars := gitHubVars(t, gh)
		vars["GITHUB_REPOSITORY"] = repo
		if _, err := prcomment.Locate(envOf(vars)); err == nil || !strings.Contains(err.Error(), "is not owner/name") {
			t.Errorf("GITHUB_REPOSITORY=%q: %v", repo, err)
		}
	}
	gl := prcommenttest.NewGitLab(t, "tok")
	vars := map[string]string{}
	gl.GitLabEnv(func(k, v string) { vars[k] = v })
	vars["CI_MERGE_REQUEST_IID"] = "7/../../8"
	if _, err := prcomment.Locate(envOf(vars)); err == nil || !strings.Contains(err.Error(), "do not name a merge request") {
		t.Errorf("iid with a path: %v", err)
	}
	if len(gh.Requests())+len(gl.Requests()) != 0 {
		t.Errorf("requests sent: %v %v", gh.Requests(), gl.Requests())
	}
}

// A redirect to another host is not followed: GitLab's PRIVATE-TOKEN,
// unlike Authorization, would go with it.
func TestTheTokenNeverFollowsARedirectToAnotherHost(t *testing.T) {
	var leaked atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("PRIVATE-TOKEN") != "" || r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		w.Write([]byte("[]"))
	}))
	t.Cleanup(elsewhere.Close)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(elsewhere.URL, "127.0.0.1", "localhost", 1)+r.URL.RequestURI(), http.StatusFound)
	}))
	t.Cleanup(redirect.Close)
	gl := prcommenttest.NewGitLab(t, "glpat-secret")
	vars := map[string]string{}
	gl.GitLabEnv(func(k, v string) { vars[k] = v })
	vars["CI_API_V4_URL"] = redirect.URL + "/api/v4"
	th, err := prcomment.Locate(envOf(vars))
	if err != nil {
		t.Fatal(err)
	}
	_, err = th.Keep(context.Background(), "hello")
	if err == nil || !strings.Contains(err.Error(), "not followed with the token") {
		t.Errorf("want the redirect refused, got %v", err)
	}
	if strings.Contains(err.Error(), "glpat-secret") || leaked.Load() != 0 {
		t.Errorf("the token went elsewhere (%d) or was printed: %v", leaked.Load(), err)
	}
}

// A body longer than the code host takes is refused before anything is
// sent: the caller cuts it to MaxBody.
func TestKeepRefusesABodyOverTheLimit(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	th, err := prcomment.Locate(envOf(gitHubVars(t, gh)))
	if err != nil {
		t.Fatal(err)
	}
	if th.MaxBody >= 65536 || th.MaxBody < 65400 {
		t.Errorf("MaxBody %d: GitHub's 65536 less the marker", th.MaxBody)
	}
	if _, err := th.Keep(context.Background(), strings.Repeat("x", th.MaxBody+1)); err == nil {
		t.Error("a body over the limit was accepted")
	}
	if _, err := th.Keep(context.Background(), strings.Repeat("x", th.MaxBody)); err != nil {
		t.Errorf("a body at the limit: %v", err)
	}
	if len(gh.Requests()) != 2 {
		t.Errorf("requests: %v", gh.Requests())
	}
}

// A TESTCTL_COMMENT_TIMEOUT that is not a duration is said, not ignored.
func TestLocateSaysABadTimeout(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	vars := gitHubVars(t, gh)
	vars["TESTCTL_COMMENT_TIMEOUT"] = "10"
	if _, err := prcomment.Locate(envOf(vars)); err == nil || !strings.Contains(err.Error(), `TESTCTL_COMMENT_TIMEOUT ("10") is not a positive duration. Set it like 10s`) {
		t.Errorf("got %v", err)
	}
}

// The token travels in clear to this machine only, and a write is never
// sent on through a redirect, even to the same origin.
func TestTheTokenNeverTravelsInClearNorAWriteThroughARedirect(t *testing.T) {
	gh := prcommenttest.NewGitHub(t, "tok")
	for _, base := range []string{"http://api.github.example", "http://10.0.0.1:8080", "ftp://x", "https://u:p@api.example", "https://api.example?x=1"} {
		vars := gitHubVars(t, gh)
		vars["GITHUB_API_URL"] = base
		if _, err := prcomment.Locate(envOf(vars)); err == nil || strings.Contains(err.Error(), "u:p") {
			t.Errorf("GITHUB_API_URL=%s: %v", base, err)
		}
	}
	// A POST answered with a 307 to the same origin: not sent again.
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/graphql":
			w.Write([]byte(`{"data":{"viewer":{"login":"github-actions"},"repository":{"pullRequest":{"comments":{"nodes":[],"pageInfo":{"hasNextPage":false}}}}}}`))
		case r.URL.Path == "/elsewhere":
			posts.Add(1)
		default:
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		}
	}))
	t.Cleanup(srv.Close)
	vars := gitHubVars(t, gh)
	vars["GITHUB_API_URL"] = srv.URL
	th, err := prcomment.Locate(envOf(vars))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := th.Keep(context.Background(), "hello"); err == nil || !strings.Contains(err.Error(), "POST answered with a redirect: not followed") {
		t.Errorf("got %v", err)
	}
	if posts.Load() != 0 {
		t.Error("the write was sent on through the redirect")
	}
}
