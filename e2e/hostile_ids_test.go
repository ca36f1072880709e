package e2e_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
)

// Ids the service chose, pasted back into a shell.
const (
	hostileRun  = `r1$(touch pwned)`
	hostileCase = `c1;rm -rf ~`
)

// idServer is a service whose start answer names the run hostileRun, which
// then reads with status (a failed run holds the test case hostileCase);
// its logs fail.
func idServer(t *testing.T, status string) *cmdtest.Env {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost:
			w.Write([]byte(`{"success":true,"run":{"id":"run_1","shortId":"r1$(touch pwned)","url":"https://app.invalid/runs/r1","testCount":1}}`))
		case status == "RUNNING" && strings.HasPrefix(r.URL.Path, "/v1/run/"):
			w.Write([]byte(`{"id":"run_1","shortId":"r1$(touch pwned)","status":"RUNNING","result":null,"runTestCases":[]}`))
		case strings.HasPrefix(r.URL.Path, "/v1/run/"):
			w.Write([]byte(`{"id":"run_1","shortId":"r1$(touch pwned)","status":"COMPLETED","result":"FAILED","runTestCases":[` +
				`{"id":"c1","shortId":"c1;rm -rf ~","name":"Pay","status":"COMPLETED","result":"FAILED","resultTitle":"broke"}]}`))
		default:
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	return e
}

// Every command testctl prints for the user to paste quotes the ids the
// service gave, wherever it prints it: a pasted `testctl logs c1;rm -rf ~`
// would run the service's command. With the evidence gathered and without
// it, the commands are the same.
func TestPrintedCommandsQuoteTheServiceIDs(t *testing.T) {
	for _, n := range []string{"0", "10"} {
		t.Run("evidence "+n, func(t *testing.T) {
			e := idServer(t, "COMPLETED")
			e.GitHubActions()
			summary := filepath.Join(e.Dir, "summary.md")
			e.Setenv("GITHUB_STEP_SUMMARY", summary)
			junit := filepath.Join(e.Dir, "junit.xml")
			r := e.Run("run", "start", "--plan", "pln-a_b1", "--wait", "--evidence", n, "--junit", junit).Expect(t, 1)
			cmdtest.Contains(t, "stderr", r.Stderr,
				"testctl logs 'c1;rm -rf ~' --kind network --status errors\n",
				"testctl run rerun 'r1$(touch pwned)' --failed-only --wait\n")

			var out string
			for _, s := range cmdtest.ReadJUnitFile(t, junit).Suites {
				for _, c := range s.Cases {
					out += c.SystemOut
				}
			}
			cmdtest.Contains(t, "JUnit <system-out>", out,
				"testctl logs 'c1;rm -rf ~' --kind network --status errors\n",
				"testctl logs 'c1;rm -rf ~' --kind console --warnings")

			md, err := os.ReadFile(summary)
			if err != nil {
				t.Fatal(err)
			}
			cmdtest.Contains(t, "step summary", string(md),
				"testctl logs &#39;c1;rm -rf ~&#39; --kind network --status errors\ntestctl logs &#39;c1;rm -rf ~&#39; --kind console --warnings")
			for _, bare := range []string{"logs c1;rm", "rerun r1$(", "logs c1;rm"} {
				for what, text := range map[string]string{"stderr": r.Stderr, "JUnit": out, "step summary": string(md)} {
					if strings.Contains(text, bare) {
						t.Errorf("%s holds the unquoted %q", what, bare)
					}
				}
			}
		})
	}
}

// The command that resumes a wait quotes the run's id too: on stderr, in
// the step summary, and in the timeout's annotation.
func TestResumeCommandQuotesTheServiceID(t *testing.T) {
	e := idServer(t, "RUNNING")
	e.GitHubActions()
	summary := filepath.Join(e.Dir, "summary.md")
	e.Setenv("GITHUB_STEP_SUMMARY", summary)
	r := e.Run("run", "start", "--plan", "pln-a_b1", "--wait", "--timeout", "2m").Expect(t, 7)
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	const want = "testctl run wait 'r1$(touch pwned)'"
	for what, text := range map[string]string{"stderr": r.Stderr, "step summary": string(md)} {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
		if strings.Contains(text, "run wait r1$(") {
			t.Errorf("%s holds the unquoted run id:\n%s", what, text)
		}
	}
	if !strings.Contains(r.Stderr, "timed out::still RUNNING when the wait timed out; the run goes on. Resume waiting with: "+want+"\n") {
		t.Errorf("the timeout's annotation lacks the quoted resume command:\n%s", r.Stderr)
	}
}

// A run the service named like a flag (--junit=FILE) cannot turn the
// printed run wait line into one that writes where it says: the line puts
// it after "--", and run wait, given it, refuses it (exit 2) and writes
// nothing.
func TestFlagLikeRunIDCannotWriteAFile(t *testing.T) {
	e := cmdtest.New(t)
	target := filepath.Join(e.Dir, "bashrc")
	ids := []string{"--junit=" + target, "r2"}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method != http.MethodPost {
			w.Write([]byte(`{"id":"x","shortId":"x","status":"RUNNING","result":null,"runTestCases":[]}`))
			return
		}
		mu.Lock()
		id := ids[0]
		ids = ids[1:]
		mu.Unlock()
		body, _ := json.Marshal(map[string]any{"success": true, "run": map[string]any{"id": "run_" + id, "shortId": id, "testCount": 1}})
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "start", "--plan", "pln-a_b1", "--plan", "pln-b_c2", "--wait", "--timeout", "2m").Expect(t, 7)
	line := regexp.MustCompile(`testctl run wait .*`).FindString(r.Stderr)
	if !strings.HasPrefix(line, "testctl run wait -- ") || !strings.Contains(line, " --junit="+target) {
		t.Fatalf("the resume line does not put the flag-like id after --: %q\n%s", line, r.Stderr)
	}
	e.Run(strings.Fields(line)[1:]...).Expect(t, 2)
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the pasted line wrote %s (%v)", target, err)
	}
}
