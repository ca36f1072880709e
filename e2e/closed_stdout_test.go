package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/cmdtest"
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
	r = e.RunWith(out, "run", "list", "--all", "--limit", "10", "-o", "json").Expect(t, 0)
	if r.Stderr != "" {
		t.Errorf("stderr: %s", r.Stderr)
	}
	if pages := e.Requests("GET /v1/run") - before; pages > 3 {
		t.Errorf("%d pages read for nobody", pages)
	}
}
