package root_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
)

// Every command that starts runs or gives their verdict writes the outputs
// exit-code and verdict under GitHub Actions, and the --dotenv report,
// once, with the code it ends with.
func TestVerdictCommandsWriteTheStepOutputs(t *testing.T) {
	e := cmdtest.New(t)
	passed := e.StartRun(t, "pln-passing_sandbox")
	for _, tc := range []struct {
		name    string
		args    func() []string
		code    int
		exit    string
		verdict string
		runs    string
	}{
		{"run wait", func() []string { return []string{"run", "wait", passed, "--interval", "1s"} }, 0, "0", "passed", "1"},
		{"run report", func() []string { return []string{"run", "report", passed} }, 0, "0", "passed", "1"},
		{"run start without --wait", func() []string { return []string{"run", "start", "--plan", "pln-failing_sandbox"} }, 0, "0", "started", "1"},
		{"run start --wait", func() []string {
			return []string{"run", "start", "--plan", "pln-failing_sandbox", "--plan", "pln-passing_sandbox", "--wait", "--interval", "1s"}
		}, 1, "1", "failed", "2"},
		{"run rerun", func() []string { return []string{"run", "rerun", passed} }, 0, "0", "started", "1"},
		{"run wait usage", func() []string { return []string{"run", "wait", passed, "--timeout", "-1s"} }, 2, "2", "usage", "0"},
		{"run report usage", func() []string { return []string{"run", "report", passed, "--evidence", "-1"} }, 2, "2", "usage", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := e.GitHubActions()
			dotenv := filepath.Join(e.Dir, "testctl.env")
			_ = os.Remove(dotenv)
			e.Run(append(tc.args(), "--dotenv", dotenv)...).Expect(t, tc.code)
			gh := cmdtest.ReadGitHubOutput(t, out)
			if gh["exit-code"] != tc.exit || gh["verdict"] != tc.verdict {
				t.Errorf("outputs %v: want exit-code %s, verdict %s", gh, tc.exit, tc.verdict)
			}
			if raw, _ := os.ReadFile(out); strings.Count(string(raw), "exit-code<<") != 1 {
				t.Errorf("exit-code written %d times, want once:\n%s", strings.Count(string(raw), "exit-code<<"), raw)
			}
			env := cmdtest.ReadDotenv(t, dotenv)
			if env["TESTCTL_EXIT_CODE"] != tc.exit || env["TESTCTL_VERDICT"] != tc.verdict || env["TESTCTL_RUN_COUNT"] != tc.runs {
				t.Errorf("dotenv %v: want exit code %s, verdict %s, %s runs", env, tc.exit, tc.verdict, tc.runs)
			}
			if tc.runs == "2" && len(strings.Fields(env["TESTCTL_RUN_URL"])) != 2 {
				t.Errorf("TESTCTL_RUN_URL %q: want both runs' URLs, space-separated", env["TESTCTL_RUN_URL"])
			}
		})
	}
}

// Outside those commands nothing is written: run get gives no verdict.
func TestOtherCommandsWriteNoStepOutputs(t *testing.T) {
	e := cmdtest.New(t)
	out := e.GitHubActions()
	e.Run("run", "list").Expect(t, 0)
	if gh := cmdtest.ReadGitHubOutput(t, out); len(gh) != 0 {
		t.Errorf("run list wrote outputs %v", gh)
	}
}

// A dotenv report that cannot be written is exit 8, as any CI file, and
// the exit-code output written after it says 8. Its directory is checked
// before anything is sent: it goes away while the run is read.
func TestAnUnwritableDotenvIsExit8(t *testing.T) {
	e := cmdtest.New(t)
	out := e.GitHubActions()
	id := e.StartRun(t, "pln-passing_sandbox")
	e.Clock.Advance(2 * time.Minute)
	dir := filepath.Join(e.Dir, "reports")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(e.Getenv("TESTCTL_BASE_URL"))
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/run/"+id {
			_ = os.RemoveAll(dir)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)

	r := e.Run("run", "report", id, "--dotenv", filepath.Join(dir, "testctl.env")).Expect(t, 8)
	cmdtest.Contains(t, "stderr", r.Stderr, "error: writing the dotenv report")
	if gh := cmdtest.ReadGitHubOutput(t, out); gh["exit-code"] != "8" || gh["verdict"] != "local" {
		t.Errorf("outputs %v: want exit-code 8, verdict local", gh)
	}
}

// A wait a signal ended (a cancelled job) still names the run in the
// dotenv report, with the signal's code: the reports are written whatever
// ended the wait.
func TestASignalEndedWaitWritesTheDotenv(t *testing.T) {
	e := cmdtest.New(t)
	out := e.GitHubActions()
	id := e.StartRun(t, "pln-slow_sandbox")
	dotenv := filepath.Join(e.Dir, "testctl.env")
	ctx := cmdtest.TerminateAt(e.Clock, e.Clock.Now().Add(20*time.Second))
	e.RunWith(cmdtest.RunOptions{Ctx: ctx}, "run", "wait", id, "--interval", "1s", "--dotenv", dotenv).Expect(t, 143)
	env := cmdtest.ReadDotenv(t, dotenv)
	if env["TESTCTL_EXIT_CODE"] != "143" || env["TESTCTL_VERDICT"] != "terminated" || env["TESTCTL_RUN_SHORT_ID"] != id {
		t.Errorf("dotenv %v: want run %s, exit code 143, terminated", env, id)
	}
	if gh := cmdtest.ReadGitHubOutput(t, out); gh["exit-code"] != "143" || gh["run_short_id"] != id {
		t.Errorf("outputs %v: want exit-code 143 and the run", gh)
	}
}

// A --dotenv in a directory that does not exist is a usage error naming
// it, and stays exit 2: nothing else tries to write it.
func TestABadDotenvPathIsUsage(t *testing.T) {
	e := cmdtest.New(t)
	out := e.GitHubActions()
	r := e.Run("run", "start", "--plan", "pln-passing_sandbox", "--dotenv", filepath.Join(e.Dir, "missing", "testctl.env")).Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--dotenv", "does not exist")
	if strings.Contains(r.Stderr, "writing the dotenv report") {
		t.Errorf("a second error about the same file:\n%s", r.Stderr)
	}
	if gh := cmdtest.ReadGitHubOutput(t, out); gh["exit-code"] != "2" || gh["verdict"] != "usage" {
		t.Errorf("outputs %v: want exit-code 2, usage", gh)
	}
	if n := e.Requests("POST /v1/run"); n != 0 {
		t.Errorf("%d runs started", n)
	}
}
