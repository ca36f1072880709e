// Package prcommenttest fakes the comments APIs prcomment writes to:
// GitHub's issue comments of one pull request (REST, and the GraphQL that
// says which the token wrote) and GitLab's notes of one merge request, as
// httptest servers that keep the comments, know who the token is, check
// it, and can refuse writes (a fork's read-only token), hide who the
// token is, or never answer.
package prcommenttest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Comment is one comment of the thread.
type Comment struct {
	ID   int64
	User string // GitHub: REST's user.login ("name[bot]" for a bot); GitLab: the username
	// UserID is the GitLab author's id; 0: the id the server gives User.
	UserID int64
	Body   string
	System bool // GitLab's own notes ("added 1 commit")
}

// Server is a fake code host with one pull request (merge request).
type Server struct {
	*httptest.Server
	t     testing.TB
	token string
	// Number is the pull request's number (the merge request's iid).
	Number int
	mu     sync.Mutex
	list   []Comment
	nextID int64
	reqs   []string
	login  string           // who the token writes as
	ids    map[string]int64 // GitLab's user ids, by username
	// ReadOnly refuses every write with 403, as GitHub does a fork's
	// token; Hang holds every request until the client gives up;
	// noIdentity hides who the token is.
	readOnly, hang, noIdentity bool
}

// hangGuard lets go of a held request in the end, so a broken client
// cannot hang the suite's clean-up.
const hangGuard = time.Minute

// GitHubUser is who the token writes as on GitHub, by default: the
// Actions token, whose GraphQL viewer is "github-actions".
const GitHubUser = "github-actions[bot]"

// GitLabUser is who the token writes as on GitLab, by default: a project
// access token's bot user.
const GitLabUser = "project_42_bot"

// NewGitHub starts a fake GitHub API accepting token, with pull request 7
// of octo/app: REST at its URL, GraphQL at URL/graphql.
func NewGitHub(t testing.TB, token string) *Server {
	s := &Server{t: t, token: token, Number: 7, nextID: 1000, login: GitHubUser}
	s.Server = httptest.NewServer(http.HandlerFunc(s.gitHub))
	t.Cleanup(s.Close)
	return s
}

// NewGitLab starts a fake GitLab API (under /api/v4) accepting token, with
// merge request 7 of project 42.
func NewGitLab(t testing.TB, token string) *Server {
	s := &Server{t: t, token: token, Number: 7, nextID: 5000, login: GitLabUser, ids: map[string]int64{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.gitLab))
	t.Cleanup(s.Close)
	return s
}

// Add puts a comment on the thread, as its User wrote it.
func (s *Server) Add(c Comment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	c.ID = s.nextID
	s.list = append(s.list, c)
}

// Comments are the thread's comments, oldest first.
func (s *Server) Comments() []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Comment(nil), s.list...)
}

// Requests are the requests received, "METHOD path?query", in order; a
// GraphQL request adds what it asks: "POST /graphql query" or "POST
// /graphql mutation updateIssueComment ID".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reqs...)
}

// ReadOnly makes every write a 403 (on GitHub's GraphQL, a FORBIDDEN error).
func (s *Server) ReadOnly() { s.mu.Lock(); s.readOnly = true; s.mu.Unlock() }

// Hang makes every request wait until the client gives up.
func (s *Server) Hang() { s.mu.Lock(); s.hang = true; s.mu.Unlock() }

// Identity makes the token write as login from now on (GitHub: REST's
// user.login, "name[bot]" for a bot; GitLab: the username), as a changed
// token does.
func (s *Server) Identity(login string) { s.mu.Lock(); s.login = login; s.mu.Unlock() }

// NoIdentity hides who the token is: GitHub's GraphQL answers FORBIDDEN
// for the viewer and null for each viewerDidAuthor, GitLab's GET /user a
// 403 insufficient_scope.
func (s *Server) NoIdentity() { s.mu.Lock(); s.noIdentity = true; s.mu.Unlock() }

// GitHubEnv is a GitHub Actions job on a pull_request event for this
// server's pull request, written with setenv; the event payload is
// written under dir.
func (s *Server) GitHubEnv(setenv func(string, string), dir string) {
	s.t.Helper()
	event := filepath.Join(dir, "event.json")
	payload := fmt.Sprintf(`{"action":"synchronize","number":%d,"pull_request":{"number":%d,"head":{"ref":"feature"}}}`, s.Number, s.Number)
	if err := os.WriteFile(event, []byte(payload), 0o644); err != nil {
		s.t.Fatal(err)
	}
	for k, v := range map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event,
		"GITHUB_REPOSITORY": "octo/app", "GITHUB_API_URL": s.URL, "GITHUB_SERVER_URL": "https://github.example",
		"GITHUB_TOKEN": s.token, "GITHUB_WORKFLOW": "CI", "GITHUB_JOB": "e2e", "GITHUB_RUN_ID": "9001",
	} {
		setenv(k, v)
	}
}

// GitLabEnv is a GitLab CI job of a merge request pipeline for this
// server's merge request, written with setenv.
func (s *Server) GitLabEnv(setenv func(string, string)) {
	for k, v := range map[string]string{
		"GITLAB_CI": "true", "CI_MERGE_REQUEST_IID": strconv.Itoa(s.Number), "CI_PROJECT_ID": "42",
		"CI_MERGE_REQUEST_PROJECT_ID": "42", "CI_API_V4_URL": s.URL + "/api/v4",
		"CI_MERGE_REQUEST_PROJECT_URL": "https://gitlab.example/octo/app", "CI_JOB_URL": "https://gitlab.example/octo/app/-/jobs/77",
		"CI_JOB_NAME": "e2e", "TESTCTL_GITLAB_TOKEN": s.token,
	} {
		setenv(k, v)
	}
}

// begin records r (with what, for GraphQL) and applies the failure modes;
// false: answered. A read-only token is refused a REST write here.
func (s *Server) begin(w http.ResponseWriter, r *http.Request, authorized bool, what string) bool {
	s.mu.Lock()
	s.reqs = append(s.reqs, r.Method+" "+r.URL.RequestURI()+what)
	hang, readOnly := s.hang, s.readOnly
	s.mu.Unlock()
	if hang {
		select {
		case <-r.Context().Done():
		case <-time.After(hangGuard):
		}
		return false
	}
	if !authorized {
		answer(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
		return false
	}
	if readOnly && r.Method != http.MethodGet && what == "" {
		answer(w, http.StatusForbidden, map[string]string{"message": "Resource not accessible by integration"})
		return false
	}
	return true
}

func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// page is one page of the comments, as both REST APIs page them.
func (s *Server) page(r *http.Request) ([]Comment, bool) {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	per = min(max(per, 1), 100)
	page = max(page, 1)
	all := s.Comments()
	from := min((page-1)*per, len(all))
	to := min(from+per, len(all))
	return all[from:to], to < len(all)
}

func readBody(r *http.Request) (string, bool) {
	data, err := io.ReadAll(r.Body)
	var in struct {
		Body *string `json:"body"`
	}
	if err != nil || json.Unmarshal(data, &in) != nil || in.Body == nil {
		return "", false
	}
	return *in.Body, true
}

// edit replaces the body of comment id, whoever wrote it (a maintainer's
// token may); false when there is none.
func (s *Server) edit(id int64, body string) (Comment, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.list {
		if s.list[i].ID == id {
			s.list[i].Body = body
			return s.list[i], true
		}
	}
	return Comment{}, false
}

// self is who the token writes as, for a comment it creates.
func (s *Server) self() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.login
}
