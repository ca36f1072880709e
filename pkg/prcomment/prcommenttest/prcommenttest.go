// Package prcommenttest fakes the comments APIs prcomment writes to:
// GitHub's issue comments of one pull request and GitLab's notes of one
// merge request, as httptest servers that keep the comments, check the
// token, and can refuse writes (a fork's read-only token) or never answer.
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
	"strings"
	"sync"
	"testing"
	"time"
)

// Comment is one comment of the thread.
type Comment struct {
	ID     int64
	User   string
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
	// ReadOnly refuses every write with 403, as GitHub does a fork's
	// token; Hang holds every request until the client gives up.
	readOnly, hang bool
}

// hangGuard lets go of a held request in the end, so a broken client
// cannot hang the suite's clean-up.
const hangGuard = time.Minute

// GitHubUser is who the token writes as.
const GitHubUser = "github-actions[bot]"

// NewGitHub starts a fake GitHub REST API accepting token, with pull
// request 7 of octo/app.
func NewGitHub(t testing.TB, token string) *Server {
	s := &Server{t: t, token: token, Number: 7, nextID: 1000}
	s.Server = httptest.NewServer(http.HandlerFunc(s.gitHub))
	t.Cleanup(s.Close)
	return s
}

// NewGitLab starts a fake GitLab API (under /api/v4) accepting token, with
// merge request 7 of project 42.
func NewGitLab(t testing.TB, token string) *Server {
	s := &Server{t: t, token: token, Number: 7, nextID: 5000}
	s.Server = httptest.NewServer(http.HandlerFunc(s.gitLab))
	t.Cleanup(s.Close)
	return s
}

// Add puts a comment on the thread, as someone else wrote it.
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

// Requests are the requests received, "METHOD path?query", in order.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reqs...)
}

// ReadOnly makes every write a 403.
func (s *Server) ReadOnly() { s.mu.Lock(); s.readOnly = true; s.mu.Unlock() }

// Hang makes every request wait until the client gives up.
func (s *Server) Hang() { s.mu.Lock(); s.hang = true; s.mu.Unlock() }

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

// begin records r and applies the failure modes; false: answered.
func (s *Server) begin(w http.ResponseWriter, r *http.Request, authorized bool) bool {
	s.mu.Lock()
	s.reqs = append(s.reqs, r.Method+" "+r.URL.RequestURI())
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
	if readOnly && r.Method != http.MethodGet {
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

// page is one page of the comments, as both APIs page them.
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

// edit replaces the body of comment id; false when there is none.
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

func (s *Server) gitHub(w http.ResponseWriter, r *http.Request) {
	if !s.begin(w, r, r.Header.Get("Authorization") == "Bearer "+s.token) {
		return
	}
	thread := fmt.Sprintf("/repos/octo/app/issues/%d/comments", s.Number)
	view := func(c Comment) map[string]any {
		return map[string]any{"id": c.ID, "body": c.Body, "user": map[string]string{"login": c.User},
			"html_url": fmt.Sprintf("https://github.example/octo/app/pull/%d#issuecomment-%d", s.Number, c.ID)}
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == thread:
		page, more := s.page(r)
		out := []map[string]any{}
		for _, c := range page {
			out = append(out, view(c))
		}
		if more {
			next := *r.URL
			q := next.Query()
			p, _ := strconv.Atoi(q.Get("page"))
			q.Set("page", strconv.Itoa(max(p, 1)+1))
			next.RawQuery = q.Encode()
			w.Header().Set("Link", fmt.Sprintf(`<%s%s>; rel="next"`, s.URL, next.RequestURI()))
		}
		answer(w, http.StatusOK, out)
	case r.Method == http.MethodPost && r.URL.Path == thread:
		body, ok := readBody(r)
		if !ok || len([]rune(body)) > 65536 {
			answer(w, http.StatusUnprocessableEntity, map[string]string{"message": "Validation Failed"})
			return
		}
		s.Add(Comment{User: GitHubUser, Body: body})
		all := s.Comments()
		answer(w, http.StatusCreated, view(all[len(all)-1]))
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/octo/app/issues/comments/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/repos/octo/app/issues/comments/"), 10, 64)
		body, ok := readBody(r)
		if !ok || len([]rune(body)) > 65536 {
			answer(w, http.StatusUnprocessableEntity, map[string]string{"message": "Validation Failed"})
			return
		}
		c, ok := s.edit(id, body)
		if !ok {
			answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
			return
		}
		answer(w, http.StatusOK, view(c))
	default:
		answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
	}
}

func (s *Server) gitLab(w http.ResponseWriter, r *http.Request) {
	if !s.begin(w, r, r.Header.Get("PRIVATE-TOKEN") == s.token) {
		return
	}
	notes := fmt.Sprintf("/api/v4/projects/42/merge_requests/%d/notes", s.Number)
	view := func(c Comment) map[string]any {
		return map[string]any{"id": c.ID, "body": c.Body, "system": c.System, "author": map[string]string{"username": c.User}}
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == notes:
		page, more := s.page(r)
		out := []map[string]any{}
		for _, c := range page {
			out = append(out, view(c))
		}
		if more {
			p, _ := strconv.Atoi(r.URL.Query().Get("page"))
			w.Header().Set("X-Next-Page", strconv.Itoa(max(p, 1)+1))
		}
		answer(w, http.StatusOK, out)
	case r.Method == http.MethodPost && r.URL.Path == notes:
		body, ok := readBody(r)
		if !ok {
			answer(w, http.StatusBadRequest, map[string]string{"error": "body is missing"})
			return
		}
		s.Add(Comment{User: "project_42_bot", Body: body})
		all := s.Comments()
		answer(w, http.StatusCreated, view(all[len(all)-1]))
	case r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, notes+"/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, notes+"/"), 10, 64)
		body, ok := readBody(r)
		if !ok {
			answer(w, http.StatusBadRequest, map[string]string{"error": "body is missing"})
			return
		}
		c, ok := s.edit(id, body)
		if !ok {
			answer(w, http.StatusNotFound, map[string]string{"message": "404 Not found"})
			return
		}
		answer(w, http.StatusOK, view(c))
	default:
		answer(w, http.StatusNotFound, map[string]string{"message": "404 Not found"})
	}
}
