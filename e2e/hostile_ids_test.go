package e2e_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
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
				"testctl logs 'c1;rm -rf ~' --kind console")

			md, err := os.ReadFile(summary)
			if err != nil {
				t.Fatal(err)
			}
			cmdtest.Contains(t, "step summary", string(md),
				"testctl logs &#39;c1;rm -rf ~&#39; --kind network --status errors\ntestctl logs &#39;c1;rm -rf ~&#39; --kind console")
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
// it after "--", so run wait, given it, takes it for a run's id and
// writes nothing.
func TestFlagLikeRunIDCannotWriteAFile(t *testing.T) {
	e := cmdtest.New(t)
	t.Chdir(e.Dir) // where a --junit=bashrc taken as a flag would write
	target := filepath.Join(e.Dir, "bashrc")
	ids := []string{"--junit=bashrc", "r2"}
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
	if !strings.HasPrefix(line, "testctl run wait -- ") || !strings.Contains(line, " --junit=bashrc") {
		t.Fatalf("the resume line does not put the flag-like id after --: %q\n%s", line, r.Stderr)
	}
	r = e.Run(strings.Fields(line)[1:]...).Expect(t, 7)
	if strings.Contains(r.Stderr, "JUnit report written") {
		t.Errorf("the pasted line wrote a JUnit report:\n%s", r.Stderr)
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the pasted line wrote %s (%v)", target, err)
	}
}

// A run the service named so that its id cannot be sent (a dot segment, a
// path) is never polled: the wait gives that run up, exit 6 for the
// service's fault, and the other run keeps its verdict.
func TestRunIDThatCannotBeSentGivesThatRunUp(t *testing.T) {
	for _, bad := range []string{"..", "../admin", "r1%2f..%2fadmin"} {
		t.Run(bad, func(t *testing.T) {
			e := cmdtest.New(t)
			ids := []string{bad, "r2"}
			var mu sync.Mutex
			var rec pathRecorder
			rec.serve(t, e, func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost {
					w.Write([]byte(`{"id":"x","shortId":"r2","status":"COMPLETED","result":"PASSED","runTestCases":[]}`))
					return
				}
				mu.Lock()
				id := ids[0]
				ids = ids[1:]
				mu.Unlock()
				body, _ := json.Marshal(map[string]any{"success": true, "run": map[string]any{"id": "run_" + id, "shortId": id, "testCount": 1}})
				w.Write(body)
			})
			r := e.Run("run", "start", "--plan", "pln-a_b1", "--plan", "pln-b_c2", "--wait").Expect(t, 6)
			cmdtest.Contains(t, "stderr", r.Stderr, "the service gave it an id that cannot be sent", "Run r2: COMPLETED · PASSED")
			for _, p := range rec.got() {
				if p != "/v1/run" && p != "/v1/run/r2" {
					t.Errorf("a request for %s reached the service", p)
				}
			}
		})
	}
}

// pathRecorder is a service that answers from h and records the path of
// every request that reaches it, as sent (still escaped, dot segments
// unresolved).
type pathRecorder struct {
	mu    sync.Mutex
	paths []string
}

func (p *pathRecorder) serve(t *testing.T, e *cmdtest.Env, h http.HandlerFunc) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, _, _ := strings.Cut(r.RequestURI, "?")
		p.mu.Lock()
		p.paths = append(p.paths, path)
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
}

func (p *pathRecorder) got() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.paths)
}

// A service that names test cases of a failed run ".." and "." gets no
// request for another path than the run's and its one usable test case's
// logs: with the key, /v1/run-test-case/../logs would read
// /v1/logs. The evidence says the two were skipped, and the exit code is
// the run's verdict, in run report as in run wait.
func TestServiceIDsThatAreDotSegmentsAreNeverSent(t *testing.T) {
	for _, cmd := range []string{"report", "wait"} {
		t.Run(cmd, func(t *testing.T) {
			e := cmdtest.New(t)
			var rec pathRecorder
			rec.serve(t, e, func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/v1/run/r1":
					w.Write([]byte(`{"id":"run_1","shortId":"r1","status":"COMPLETED","result":"FAILED","runTestCases":[
						{"id":"a","shortId":"..","name":"Up","status":"COMPLETED","result":"FAILED","resultTitle":"broke"},
						{"id":"b","shortId":".","name":"Here","status":"COMPLETED","result":"FAILED","resultTitle":"broke"},
						{"id":"c","shortId":"r1-3","name":"Fine","status":"COMPLETED","result":"FAILED","resultTitle":"broke"}],"issues":[]}`))
				case "/v1/run-test-case/r1-3/logs":
					if r.URL.Query().Get("kind") != "network" {
						w.Write([]byte(`{"runTestCaseShortId":"r1-3","kind":"console","totalMatched":0,"returned":0,"hasMore":false}`))
						return
					}
					w.Write([]byte(`{"runTestCaseShortId":"r1-3","kind":"network","totalMatched":1,"returned":1,"hasMore":false,
						"network":[{"url":"https://app.invalid/api/pay","method":"POST","statusCode":502,"durationMs":10,"isError":true}]}`))
				case "/v1/run":
					w.Write([]byte(`{"runs":[],"total":0,"limit":20,"offset":0}`))
				default:
					w.WriteHeader(http.StatusNotFound)
					w.Write([]byte(`{"message":"no"}`))
				}
			})
			e.GitHubActions()
			junit := filepath.Join(e.Dir, "junit.xml")
			r := e.Run("run", cmd, "r1", "--junit", junit).Expect(t, 1)
			allowed := []string{"/v1/run", "/v1/run/r1", "/v1/run-test-case/r1-3/logs"}
			for _, p := range rec.got() {
				if !slices.Contains(allowed, p) {
					t.Errorf("a request for %s reached the service", p)
				}
			}
			cmdtest.Contains(t, "stderr", r.Stderr,
				`logs skipped: the service gave the id "..", which cannot be sent`,
				`logs skipped: the service gave the id ".", which cannot be sent`,
				"POST /api/pay 502",
				"testctl logs r1-3 --kind network --status errors")
			for _, refused := range []string{"testctl logs .. ", "testctl logs . "} {
				if strings.Contains(r.Stderr, refused) {
					t.Errorf("stderr offers %q, which would be refused:\n%s", refused, r.Stderr)
				}
			}
			data, err := os.ReadFile(junit)
			if err != nil {
				t.Fatal(err)
			}
			cmdtest.Contains(t, "JUnit", string(data), `logs skipped: the service gave the id &#34;..&#34;`)
		})
	}
}

// An id given on the command line that would change the request's path
// (a dot segment, or one percent-encoded for `api`) is refused with exit
// 2, and nothing reaches the service.
func TestDotSegmentIDsFromTheCommandLineAreRefused(t *testing.T) {
	for _, args := range [][]string{
		{"run", "get", ".."},
		{"run", "get", "."},
		{"run", "report", "."},
		{"run", "wait", ".."},
		{"run", "rerun", ".."},
		{"logs", "..", "--kind", "network"},
		{"logs", ".", "--kind", "console"},
		{"tunnel", "status", ".."},
		{"api", "/v1/%2e%2e/%2e%2e/admin"},
		{"api", "/v1/run/%2E%2E"},
		{"api", "/v1/run%2f..%2f..%2fadmin"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			e := cmdtest.New(t)
			var rec pathRecorder
			rec.serve(t, e, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) })
			r := e.Run(args...).Expect(t, 2)
			if !strings.HasPrefix(r.Stderr, "error: ") || r.Stdout != "" {
				t.Errorf("stdout %q, stderr:\n%s", r.Stdout, r.Stderr)
			}
			if got := rec.got(); len(got) != 0 {
				t.Errorf("requests reached the service: %q", got)
			}
		})
	}
}
