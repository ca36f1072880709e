// Package previewtest fakes GitHub's deployments API (the deployments of a
// repository and their statuses) as an httptest server, for tests of
// --preview: deployments and statuses are added as a test goes, and the
// server can refuse the token, rate-limit a request, or fail.
package previewtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Repo is the repository the fake serves.
const Repo = "octo/app"

// Status is one status of a deployment.
type Status struct {
	State          string `json:"state"`
	EnvironmentURL string `json:"environment_url,omitempty"`
	TargetURL      string `json:"target_url,omitempty"`
	Description    string `json:"description,omitempty"`
}

// Deployment is one deployment, its statuses oldest first.
type Deployment struct {
	ID          int64
	SHA         string
	Ref         string
	Environment string
	Production  bool
	Statuses    []Status
}

// Server is the fake API.
type Server struct {
	*httptest.Server
	t     testing.TB
	token string
	mu    sync.Mutex
	deps  []Deployment
	reqs  []string
	auths []string
	// next answers are forced, one per request, before the normal ones.
	forced []func(w http.ResponseWriter)
	// OnRequest, when set, is called with each request's number (from 1)
	// before it is answered: a test moves a deployment along there.
	OnRequest func(n int)
}

// New starts a fake GitHub API accepting token ("" accepts none).
func New(t testing.TB, token string) *Server {
	s := &Server{t: t, token: token}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Add adds a deployment (newer than those before it).
func (s *Server) Add(d Deployment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deps = append(s.deps, d)
}

// SetStatus adds a status to deployment id.
func (s *Server) SetStatus(id int64, st Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.deps {
		if s.deps[i].ID == id {
			s.deps[i].Statuses = append(s.deps[i].Statuses, st)
		}
	}
}

// Force makes the next requests answer status with headers and a message,
// one request each, before the normal answers resume.
func (s *Server) Force(status int, headers map[string]string, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forced = append(s.forced, func(w http.ResponseWriter) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		answer(w, status, map[string]string{"message": message})
	})
}

// Requests are the requests received, "GET path?query".
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// Authorizations are the Authorization headers received.
func (s *Server) Authorizations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.auths)
}

// Env sets the variables of a GitHub Actions job pointing at the fake.
func (s *Server) Env(setenv func(string, string)) {
	for k, v := range map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": Repo, "GITHUB_API_URL": s.URL, "GITHUB_TOKEN": s.token,
	} {
		setenv(k, v)
	}
}

// EventFile writes a deployment_status event payload for deployment d with
// its last status under dir and returns its path.
func EventFile(t testing.TB, dir string, d Deployment) string {
	t.Helper()
	st := Status{State: "pending"}
	if len(d.Statuses) > 0 {
		st = d.Statuses[len(d.Statuses)-1]
	}
	doc := map[string]any{
		"action":            "created",
		"deployment":        map[string]any{"id": d.ID, "sha": d.SHA, "ref": d.Ref, "environment": d.Environment, "production_environment": d.Production},
		"deployment_status": st,
		"repository":        map[string]any{"full_name": Repo},
		"sender":            map[string]any{"login": "vercel[bot]"},
	}
	data, _ := json.Marshal(doc)
	path := filepath.Join(dir, "deployment_status.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r.Method+" "+r.URL.RequestURI())
	s.auths = append(s.auths, r.Header.Get("Authorization"))
	n := len(s.reqs)
	var forced func(http.ResponseWriter)
	if len(s.forced) > 0 {
		forced, s.forced = s.forced[0], s.forced[1:]
	}
	hook := s.OnRequest
	s.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	if forced != nil {
		forced(w)
		return
	}
	if s.token != "" && r.Header.Get("Authorization") != "Bearer "+s.token {
		answer(w, http.StatusUnauthorized, map[string]string{"message": "Bad credentials"})
		return
	}
	prefix := "/repos/" + Repo + "/deployments"
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	if r.Method != http.MethodGet || !ok {
		answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if rest == "" {
		q := r.URL.Query()
		out := []map[string]any{}
		for i := len(s.deps) - 1; i >= 0; i-- { // newest first, as GitHub lists them
			d := s.deps[i]
			if (q.Get("sha") != "" && q.Get("sha") != d.SHA) || (q.Has("environment") && q.Get("environment") != d.Environment) {
				continue
			}
			out = append(out, map[string]any{"id": d.ID, "sha": d.SHA, "ref": d.Ref, "environment": d.Environment,
				"production_environment": d.Production, "created_at": time.Unix(1_800_000_000+d.ID, 0).UTC().Format(time.RFC3339)})
		}
		answer(w, http.StatusOK, out)
		return
	}
	idText, ok := strings.CutSuffix(strings.TrimPrefix(rest, "/"), "/statuses")
	id, err := strconv.ParseInt(idText, 10, 64)
	if !ok || err != nil {
		answer(w, http.StatusNotFound, map[string]string{"message": "Not Found"})
		return
	}
	for _, d := range s.deps {
		if d.ID == id {
			out := []Status{}
			for i := len(d.Statuses) - 1; i >= 0; i-- {
				out = append(out, d.Statuses[i])
			}
			answer(w, http.StatusOK, out)
			return
		}
	}
	answer(w, http.StatusNotFound, map[string]string{"message": fmt.Sprintf("deployment %d not found", id)})
}

func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
