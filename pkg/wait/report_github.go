package wait

import (
	"bytes"
	"fmt"
	"io"
)

// WriteGitHub writes what GitHub Actions reads when getenv says a step runs
// there: an ::error annotation per test case that did not pass (on stderr,
// since workflow commands are read from both streams and stdout is for
// data), the Markdown summary appended to $GITHUB_STEP_SUMMARY and the step
// outputs appended to $GITHUB_OUTPUT. It returns what could not be written,
// which ends the command with exit 8.
func WriteGitHub(getenv func(string) string, stderr io.Writer, recs []Record) (warnings []string) {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	WriteAnnotations(stderr, recs)
	for _, file := range []struct {
		env, what string
		write     func(io.Writer, []Record) error
	}{
		{"GITHUB_STEP_SUMMARY", "the step summary", WriteStepSummary},
		{"GITHUB_OUTPUT", "the step outputs", WriteOutputs},
	} {
		path := getenv(file.env)
		if path == "" {
			continue
		}
		var b bytes.Buffer
		err := file.write(&b, recs)
		if err == nil {
			err = appendFile(path, b.Bytes())
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("writing %s: %v", file.what, err))
		}
	}
	return warnings
}
