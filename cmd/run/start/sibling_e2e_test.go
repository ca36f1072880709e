package start_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
)

// siblingJob puts a proxy in front of the sandbox for the first write on
// route: another job's request (this one's body edited by sibling) reaches
// the sandbox first, then this one is carried out (ours) or not, and its
// answer is lost (502). The run list shows the sibling's run with the
// applications apps (nil: as the sandbox lists them), as another job of a
// matrix that names its own application would be shown.
type siblingJob struct {
	next    http.Handler
	route   string
	sibling func(body map[string]any)
	apps    []string
	ours    bool

	mu        sync.Mutex
	done      bool
	siblingID string
}

func newSiblingJob(t *testing.T, e *cmdtest.Env, route string, ours bool, apps []string, sibling func(map[string]any)) *siblingJob {
	t.Helper()
	p := &siblingJob{next: e.Sandbox.Server, route: route, sibling: sibling, apps: apps, ours: ours}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	return p
}

func (p *siblingJob) id() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.siblingID
}

func (p *siblingJob) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/run" && p.apps != nil:
		p.list(w, r)
		return
	case r.Method+" "+r.URL.Path != p.route:
		p.next.ServeHTTP(w, r)
		return
	}
	p.mu.Lock()
	first := !p.done
	p.done = true
	p.mu.Unlock()
	if !first {
		p.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var theirs map[string]any
	if len(body) > 0 {
		_ = json.Unmarshal(body, &theirs)
	}
	if theirs == nil {
		theirs = map[string]any{}
	}
	p.sibling(theirs)
	edited, _ := json.Marshal(theirs)
	rec := p.send(r, edited)
	var started struct {
		Run struct {
			ShortID string `json:"shortId"`
		} `json:"run"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &started)
	p.mu.Lock()
	p.siblingID = started.Run.ShortID
	p.mu.Unlock()
	if p.ours {
		p.send(r, body)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadGateway)
	_, _ = io.WriteString(w, `{"message":"upstream connection reset"}`)
}

func (p *siblingJob) send(r *http.Request, body []byte) *httptest.ResponseRecorder {
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	rec := httptest.NewRecorder()
	p.next.ServeHTTP(rec, r2)
	return rec
}

// list serves the run list with the sibling's applications replaced.
func (p *siblingJob) list(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	p.next.ServeHTTP(rec, r)
	out := rec.Body.Bytes()
	var page map[string]any
	if rec.Code == http.StatusOK && json.Unmarshal(out, &page) == nil {
		runs, _ := page["runs"].([]any)
		for _, run := range runs {
			if m, ok := run.(map[string]any); ok && m["shortId"] == p.id() && p.id() != "" {
				m["applicationShortIds"] = p.apps
			}
		}
		out, _ = json.Marshal(page)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rec.Code)
	_, _ = w.Write(out)
}

func runsStarted(e *cmdtest.Env) int { return e.Sandbox.Server.Stats().RunsStarted }

// testCase is the sandbox's project test case n (1 to 10).
func testCase(n int) string {
	return strings.ReplaceAll("5a4db00N-0000-4000-8000-00000000000N", "N", string("0123456789a"[n]))
}
