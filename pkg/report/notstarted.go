package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/testctl/testctl/pkg/exitcode"
)

// WriteStartRefused tells GitHub Actions, when a step runs there, that a
// command refused to start anything (a --codehost that found no commit,
// a file it could not read): an ::error annotation and a section of the
// step summary, so a CI user sees why on the workflow run's page and not
// only in the log. It returns what could not be written.
func WriteStartRefused(getenv func(string) string, stderr io.Writer, what string, err error) []string {
	if getenv("GITHUB_ACTIONS") != "true" {
		return nil
	}
	code := exitcode.Of(err)
	msg := err.Error()
	fmt.Fprintf(stderr, "::error title=%s::%s\n", escapeProperty("testctl: "+what+" started nothing"), escapeData(msg))
	write := func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "## ❌ testctl: %s started nothing (exit %d)\n\n%s\n\n", mdText(what), code,
			mdText(strings.ReplaceAll(msg, "\n", " ")))
		return err
	}
	if err := appendTo(getenv("GITHUB_STEP_SUMMARY"), write); err != nil {
		return []string{fmt.Sprintf("writing the step summary: %v", err)}
	}
	return nil
}

// WriteWarningAnnotation raises a ::warning annotation when a step runs
// under GitHub Actions (a start that went on without something it looked
// for), so it shows on the workflow run's page and not only in the log.
// title and msg are sanitised and escaped as the runner reads them.
func WriteWarningAnnotation(getenv func(string) string, stderr io.Writer, title, msg string) {
	if getenv("GITHUB_ACTIONS") != "true" {
		return
	}
	fmt.Fprintf(stderr, "::warning title=%s::%s\n", escapeProperty(title), escapeData(msg))
}

// WriteErrorAnnotation writes an ::error annotation: on the workflow run's
// page, where a CI user looks, such as a report that could not be written.
func WriteErrorAnnotation(stderr io.Writer, title, msg string) {
	fmt.Fprintf(stderr, "::error title=%s::%s\n", escapeProperty(title), escapeData(msg))
}
