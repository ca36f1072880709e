package cmdtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// OtherJob is another CI job's write that reaches the sandbox while this
// one's answer is lost: see Env.OtherJob.
type OtherJob struct {
	next  http.Handler
	route string
	edit  func(body map[string]any)
	apps  []string
	fault WriteFault

	mu      sync.Mutex
	done    bool
	otherID string
}

// OtherJob puts a proxy in front of the sandbox, and the settings' base URL
// on it, for the first write on route ("POST /v1/run"): another job's
// request, this one's JSON body as edit leaves it, reaches the sandbox
// first; then this one meets fault (LoseAnswer: carried out, LoseRequest:
// not), and its answer is a 502. The run list shows the other job's run
// with the applications listApps (nil: as the sandbox lists them), as it
// would show a job of a matrix that names another application. Later
// writes are delivered.
func (e *Env) OtherJob(route string, fault WriteFault, listApps []string, edit func(body map[string]any)) *OtherJob {
	e.t.Helper()
	p := &OtherJob{next: e.Sandbox.Server, route: route, edit: edit, apps: listApps, fault: fault}
	e.proxy(p)
	return p
}

// ShortID is the other job's run ("" before it started).
func (p *OtherJob) ShortID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.otherID
}

func (p *OtherJob) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	_ = json.Unmarshal(body, &theirs) // an empty body leaves it nil
	if theirs == nil {
		theirs = map[string]any{}
	}
	p.edit(theirs)
	edited, _ := json.Marshal(theirs)
	rec := send(p.next, r, edited)
	var started struct {
		Run struct {
			ShortID string `json:"shortId"`
		} `json:"run"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &started)
	p.mu.Lock()
	p.otherID = started.Run.ShortID
	p.mu.Unlock()
	if p.fault == LoseAnswer {
		send(p.next, r, body)
	}
	badGateway(w)
}

// list serves the run list with the other job's applications replaced.
func (p *OtherJob) list(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	p.next.ServeHTTP(rec, r)
	out := rec.Body.Bytes()
	var page map[string]any
	if rec.Code == http.StatusOK && json.Unmarshal(out, &page) == nil {
		runs, _ := page["runs"].([]any)
		for _, run := range runs {
			if m, ok := run.(map[string]any); ok && m["shortId"] == p.ShortID() && p.ShortID() != "" {
				m["applicationShortIds"] = p.apps
			}
		}
		out, _ = json.Marshal(page)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rec.Code)
	_, _ = w.Write(out)
}
