package integrations_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// syncBuffer is a step's combined output, readable while the step runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// shellStep is one script a runner runs: GitHub's `shell: bash` template is
// `bash --noprofile --norc -eo pipefail {0}`; GitLab runs the job's script
// with sh -e (shell "sh").
type shellStep struct {
	ID, Shell, Script, Dir string
	Env                    map[string]string
	// OnStart, when set, gets the step's process and output once it runs:
	// a test sends it the runner's signals.
	OnStart func(p *os.Process, out *syncBuffer)
}

// runShell runs a step and returns its output and exit code.
func runShell(t *testing.T, s shellStep) (string, int) {
	t.Helper()
	script := filepath.Join(t.TempDir(), s.ID+".sh")
	if err := os.WriteFile(script, []byte(s.Script), 0o600); err != nil {
		t.Fatal(err)
	}
	var cmd *exec.Cmd
	switch s.Shell {
	case "bash":
		cmd = exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	case "sh":
		cmd = exec.Command("sh", "-e", script)
	case "busybox":
		// BusyBox's sh, as an alpine image runs a job: its applets only.
		cmd = exec.Command(s.Env["BUSYBOX"], "sh", "-e", script)
	default:
		t.Fatalf("step %s: shell %q is not one the runners here know", s.ID, s.Shell)
	}
	cmd.Dir = s.Dir
	cmd.Env = envList(s.Env)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if s.OnStart != nil {
		s.OnStart(cmd.Process, &out)
	}
	code := 0
	if err := cmd.Wait(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal()) // killed by a signal, as a shell reports it
		}
	}
	return out.String(), code
}

func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// readOutputFile reads a $GITHUB_OUTPUT, $GITHUB_ENV or dotenv file as
// the runner does; a step that wrote none has none.
func readOutputFile(t *testing.T, path string) map[string]string {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return map[string]string{}
	}
	return cmdtest.ReadGitHubOutput(t, path)
}

// maskLog does what the runner does to a step's log: an ::add-mask::
// command is consumed, and every value masked so far shows as ***.
func maskLog(log string) string {
	var secrets []string
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "::add-mask::"); ok {
			secrets = append(secrets, v)
			continue
		}
		for _, s := range secrets {
			line = strings.ReplaceAll(line, s, "***")
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// exprPattern is a ${{ … }} expression.
var exprPattern = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// exprContext is what the expressions of action.yml can read.
type exprContext struct {
	inputs map[string]string
	steps  map[string]map[string]string // step id → outputs
	token  string                       // github.token
	// baseRef is github.base_ref: a pull request's base branch, empty
	// for the push event the emulation runs.
	baseRef string
}

// eval resolves the subset of GitHub's expressions action.yml is kept to:
// inputs.NAME, steps.ID.outputs.NAME, github.token and github.base_ref
// (inputs' defaults). Anything else fails the test, so action.yml cannot grow an
// expression this emulation would get wrong.
func (c exprContext) eval(s string) (string, error) {
	var err error
	out := exprPattern.ReplaceAllStringFunc(s, func(m string) string {
		expr := exprPattern.FindStringSubmatch(m)[1]
		parts := strings.Split(expr, ".")
		switch {
		case expr == "github.token":
			return c.token
		case expr == "github.base_ref":
			return c.baseRef
		case len(parts) == 2 && parts[0] == "inputs":
			v, ok := c.inputs[parts[1]]
			if !ok {
				err = fmt.Errorf("%s: no such input", expr)
			}
			return v
		case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
			if _, ok := c.steps[parts[1]]; !ok {
				err = fmt.Errorf("%s: no step %q before this one", expr, parts[1])
			}
			return c.steps[parts[1]][parts[3]]
		}
		err = fmt.Errorf("%q is outside the expressions action.yml may use (inputs.NAME, steps.ID.outputs.NAME, github.token, github.base_ref)", expr)
		return ""
	})
	return out, err
}
