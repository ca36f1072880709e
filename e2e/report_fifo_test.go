//go:build unix

package e2e_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// mkfifo makes a named pipe in the Env's directory.
func mkfifo(t *testing.T, e *cmdtest.Env, name string) string {
	t.Helper()
	path := filepath.Join(e.Dir, name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	return path
}

// runWithin runs a command line and fails the test if it has not ended
// within a bound far above what it takes; the pipes it may be blocked on
// are then opened for reading, so the test fails rather than hangs.
func runWithin(t *testing.T, e *cmdtest.Env, pipes []string, args ...string) cmdtest.Result {
	t.Helper()
	done := make(chan cmdtest.Result, 1)
	go func() { done <- e.Run(args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(20 * time.Second):
		for _, p := range pipes {
			if f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				defer f.Close()
			}
		}
		<-done
		t.Fatalf("%s still running after 20 s: blocked opening a named pipe", strings.Join(args, " "))
		return cmdtest.Result{}
	}
}

// A step summary or outputs file that is a named pipe nothing reads
// (GITHUB_STEP_SUMMARY=fifo) used to block open(2) for good, where one
// SIGTERM could not end it. It is a file that could not be written: the
// command ends at once with exit 8, saying which, and writes the others.
func TestGitHubFileThatIsAPipeNothingReads(t *testing.T) {
	for _, tc := range []struct{ cmd, env, what string }{
		{"report", "GITHUB_STEP_SUMMARY", "the step summary"},
		{"wait", "GITHUB_STEP_SUMMARY", "the step summary"},
		{"report", "GITHUB_OUTPUT", "the step outputs"},
	} {
		t.Run(tc.cmd+" "+tc.env, func(t *testing.T) {
			e := cmdtest.New(t)
			id := ended(t, e, sandbox.PlanFailing)
			e.GitHubActions()
			junit := filepath.Join(e.Dir, "junit.xml")
			fifo := mkfifo(t, e, "pipe")
			e.Setenv(tc.env, fifo)
			r := runWithin(t, e, []string{fifo}, "run", tc.cmd, id, "--junit", junit)
			r.Expect(t, 8)
			cmdtest.Contains(t, "stderr", r.Stderr, "writing "+tc.what, fifo+" is a named pipe that nothing reads")
			if _, err := os.Stat(junit); err != nil {
				t.Errorf("the JUnit report was not written: %v", err)
			}
			for _, env := range []string{"GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"} {
				if env == tc.env {
					continue
				}
				if b, err := os.ReadFile(e.Getenv(env)); err != nil || len(b) == 0 {
					t.Errorf("%s was not written: %v", env, err)
				}
			}
		})
	}
}

// A step summary that is a named pipe with a reader is written to, and
// the exit code is the run's verdict.
func TestGitHubStepSummaryToAPipeWithAReader(t *testing.T) {
	e := cmdtest.New(t)
	id := ended(t, e, sandbox.PlanFailing)
	e.GitHubActions()
	fifo := mkfifo(t, e, "summary")
	e.Setenv("GITHUB_STEP_SUMMARY", fifo)
	reader, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	got := make(chan string, 1)
	// The summary is a few kB, well within the pipe's buffer: read after.
	r := runWithin(t, e, nil, "run", "report", id)
	go func() { b, _ := io.ReadAll(reader); got <- string(b) }()
	r.Expect(t, 1)
	cmdtest.Contains(t, "step summary", <-got, "## ❌ testctl: failed (exit 1)")
}
