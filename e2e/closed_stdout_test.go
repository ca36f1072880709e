package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/sandbox"
)

// closedPipe is stdout piped into a reader that went away (`| head -c 10`).
func closedPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { w.Close() })
	return w
}

// When what reads stdout stops early, a wait still ends with its verdict's
// code and writes its reports, and says nothing of the closed pipe; a list
// ends 0 and stops paging.
func TestClosedStdoutKeepsTheVerdictAndTheReports(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	junit := filepath.Join(e.Dir, "junit.xml")
	out := cmdtest.RunOptions{Stdout: iostreams.Stdout(closedPipe(t))}
	r := e.RunWith(out, "run", "wait", id, "-o", "json", "--junit", junit).Expect(t, 1)
	if strings.Contains(r.Stderr, "\nerror: ") || strings.Contains(r.Stderr, "pipe") || strings.Contains(r.Stderr, "went away") {
		t.Errorf("the closed pipe is reported as an error:\n%q", r.Stderr)
	}
	if _, err := os.Stat(junit); err != nil {
		t.Errorf("no JUnit report: %v", err)
	}

	before := e.Requests("GET /v1/run")
	// 51 runs in pages of 5: 11 pages. The reader stops after the first;
	// by then the prefetcher may have asked for two pages ahead and, as the
	// second of them came in, one more (see paginate's prefetch), so at most
	// 4 reach the service, whatever the scheduling.
	r = e.RunWith(out, "run", "list", "--all", "--limit", "5", "-o", "json").Expect(t, 0)
	if r.Stderr != "" {
		t.Errorf("stderr: %s", r.Stderr)
	}
	if pages := e.Requests("GET /v1/run") - before; pages > 4 {
		t.Errorf("%d pages read for nobody", pages)
	}
}

// A closed stdout never lowers a code a command decided, whether before it
// wrote its data (a start that failed beside one that did not) or after (a
// tunnel that did not become healthy, a missing key), and never skips what
// the command does after the data: the started run's GitHub outputs are
// written.
func TestClosedStdoutKeepsTheCommandsCode(t *testing.T) {
	e := cmdtest.New(t)
	out := cmdtest.RunOptions{Stdout: iostreams.Stdout(closedPipe(t))}
	quiet := func(t *testing.T, r cmdtest.Result) {
		t.Helper()
		if strings.Contains(r.Stderr, "pipe") || strings.Contains(r.Stderr, "went away") {
			t.Errorf("the closed pipe is reported:\n%s", r.Stderr)
		}
	}
	for _, format := range []string{"table", "json"} {
		t.Run("run start -o "+format, func(t *testing.T) {
			outputs := filepath.Join(e.Dir, "github-output-"+format)
			e.Setenv("GITHUB_ACTIONS", "true")
			e.Setenv("GITHUB_OUTPUT", outputs)
			defer e.Setenv("GITHUB_ACTIONS", "")
			defer e.Setenv("GITHUB_OUTPUT", "")
			r := e.RunWith(out, "run", "start", "--plan", sandbox.PlanPassing, "--plan", "pln-nope_sandbox", "-o", format).Expect(t, 5)
			cmdtest.Contains(t, "stderr", r.Stderr, "error: plan pln-nope_sandbox was not started")
			quiet(t, r)
			if data, err := os.ReadFile(outputs); err != nil || !strings.Contains(string(data), "run_short_id") {
				t.Errorf("GitHub outputs: %v\n%s", err, data)
			}
		})
	}
	t.Run("tunnel status --wait-until", func(t *testing.T) {
		r := e.RunWith(out, "tunnel", "status", "runner-inactive", "--wait-until", "healthy", "--timeout", "10s").Expect(t, 1)
		cmdtest.Contains(t, "stderr", r.Stderr, "tunnel runner-inactive did not become healthy within 10s")
		quiet(t, r)
	})
	t.Run("auth status", func(t *testing.T) {
		e.Setenv("TESTCTL_API_KEY", "")
		defer e.Setenv("TESTCTL_API_KEY", sandbox.ProjectKey)
		r := e.RunWith(out, "auth", "status", "-o", "json").Expect(t, 4)
		cmdtest.Contains(t, "stderr", r.Stderr, "no API key")
		quiet(t, r)
	})
}
