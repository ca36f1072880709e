package e2e_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// listLeavesOut puts a proxy in front of the env's service (the sandbox,
// or the proxy FaultWrites put before it) that hands every run of the run
// list to edit: a service whose list leaves fields out.
func listLeavesOut(t *testing.T, e *cmdtest.Env, edit func(run map[string]any)) {
	t.Helper()
	pageLeavesOut(t, e, "/v1/run", "runs", edit)
}

// pageLeavesOut is listLeavesOut for any list: every item of the page
// GET path answers, under key, is handed to edit.
func pageLeavesOut(t *testing.T, e *cmdtest.Env, path, key string, edit func(item map[string]any)) {
	t.Helper()
	target, err := url.Parse(e.Getenv("TESTCTL_BASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if resp.Request.Method != http.MethodGet || resp.Request.URL.Path != path || resp.StatusCode != http.StatusOK {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return err
		}
		var page map[string]any
		if err := json.Unmarshal(body, &page); err != nil {
			return err
		}
		items, _ := page[key].([]any)
		for _, item := range items {
			if m, ok := item.(map[string]any); ok {
				edit(m)
			}
		}
		if body, err = json.Marshal(page); err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
}

// A lost start whose run the list shows without its branch, commit,
// trigger or plan: a field left out is unknown, not another value, so the
// run may be this start's. It is named with the line that takes it up
// (exit 6), and the POST is not sent again: that would start a second run.
func TestLostStartNamesARunTheListShowsWithoutAField(t *testing.T) {
	for name, edit := range map[string]func(map[string]any){
		"null branch":    func(run map[string]any) { run["branch"] = nil },
		"no branch":      func(run map[string]any) { delete(run, "branch") },
		"no commit":      func(run map[string]any) { delete(run, "commitHash") },
		"null commit":    func(run map[string]any) { run["commitHash"] = nil },
		"no trigger":     func(run map[string]any) { delete(run, "trigger") },
		"no plan":        func(run map[string]any) { delete(run, "testPlanShortId") },
		"null plan":      func(run map[string]any) { run["testPlanShortId"] = nil },
		"nothing at all": func(run map[string]any) { delete(run, "branch"); delete(run, "commitHash"); delete(run, "trigger") },
	} {
		t.Run(name, func(t *testing.T) {
			e := cmdtest.New(t)
			e.FaultWrites(postRun, cmdtest.LoseAnswer)
			listLeavesOut(t, e, edit)
			r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--branch", "main", "--commit", "abc123", "-q")
			if n := e.Requests(postRun); n != 1 || runsStarted(e) != 1 {
				t.Errorf("%d POSTs reached the service, %d runs started; want 1 and 1", n, runsStarted(e))
			}
			r.Expect(t, 6)
			ids := e.Run("run", "list", "--plan", "pln-passing_sandbox", "--limit", "1", "--jq", ".runs[].shortId").Expect(t, 0)
			id := strings.TrimSpace(ids.Stdout)
			cmdtest.Contains(t, "stderr", r.Stderr, "run "+id+" was created since; it was not adopted",
				"\n  testctl run wait "+id+"\n")
			if strings.Contains(r.Stderr, "once more") || r.Stdout != "" {
				t.Errorf("stdout %q; sent the start again:\n%s", r.Stdout, r.Stderr)
			}
		})
	}
}

// A lost start whose run the list shows without a short id: it cannot be
// waited on, so it is not adopted, and as it may be this start's the POST
// is not sent again: exit 6, saying where to look, never a passing wait on
// nothing.
func TestLostStartNeverAdoptsARunWithoutShortID(t *testing.T) {
	for name, edit := range map[string]func(map[string]any){
		"absent": func(run map[string]any) { delete(run, "shortId") },
		"empty":  func(run map[string]any) { run["shortId"] = "" },
		"null":   func(run map[string]any) { run["shortId"] = nil },
	} {
		t.Run(name, func(t *testing.T) {
			e := cmdtest.New(t)
			e.FaultWrites(postRun, cmdtest.LoseAnswer)
			listLeavesOut(t, e, edit)
			junit := filepath.Join(e.Dir, "j.xml")
			r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--branch", "main", "--commit", "abc123", "--wait", "--junit", junit)
			if n := e.Requests(postRun); n != 1 || runsStarted(e) != 1 {
				t.Errorf("%d POSTs reached the service, %d runs started; want 1 and 1", n, runsStarted(e))
			}
			if data, err := os.ReadFile(junit); err == nil && !bytes.Contains(data, []byte("<error")) && !bytes.Contains(data, []byte("<failure")) {
				t.Errorf("the JUnit file reports nothing wrong:\n%s", data)
			}
			r.Expect(t, 6)
			cmdtest.Contains(t, "stderr", r.Stderr, "a run was created since that the list of runs shows without an id",
				"it was not adopted", "POST /v1/run was not sent again",
				"Look for it with:\n    testctl run list --plan pln-passing_sandbox --branch main --commit abc123\n",
				"plan pln-passing_sandbox: may have started a run")
			if strings.Contains(r.Stderr, "not started") {
				t.Errorf("a start that may have created a run is called not started:\n%s", r.Stderr)
			}
			if strings.Contains(r.Stderr, "using it") || r.Stdout != "" {
				t.Errorf("stdout %q; adopted the run:\n%s", r.Stdout, r.Stderr)
			}
		})
	}
}
