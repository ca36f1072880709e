package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/testctl/testctl/pkg/atomicfile"
	"github.com/testctl/testctl/pkg/verdict"
)

// WriteGitHub writes what GitHub Actions reads when getenv says a step runs
// there: an annotation per test case that did not pass (on stderr, since
// workflow commands are read from both streams and stdout is for data),
// the Markdown summary appended to $GITHUB_STEP_SUMMARY and the step
// outputs appended to $GITHUB_OUTPUT. It returns what could not be written,
// which ends the command with exit 8.
func WriteGitHub(getenv func(string) string, stderr io.Writer, v verdict.Verdict, ev Evidence, res Resume) (problems []error) {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	WriteAnnotations(stderr, v, ev, res)
	for _, file := range []struct {
		env, what string
		write     func(io.Writer) error
	}{
		{"GITHUB_STEP_SUMMARY", "the step summary", func(w io.Writer) error { return WriteStepSummary(w, v, ev, res) }},
		{"GITHUB_OUTPUT", "the step outputs", func(w io.Writer) error { return WriteOutputs(w, v) }},
	} {
		if err := appendTo(getenv(file.env), file.write); err != nil {
			problems = append(problems, fmt.Errorf("GitHub Actions: writing %s: %w", file.what, err))
		}
	}
	return problems
}

// appendTo appends what write writes to path, creating it if needed;
// nothing when path is "". GitHub Actions gives every step the same
// summary and output files to append to.
func appendTo(path string, write func(io.Writer) error) error {
	if path == "" {
		return nil
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	// Not os.OpenFile: a named pipe nobody reads would block it for good.
	return atomicfile.Append(path, b.Bytes(), 0o644)
}
