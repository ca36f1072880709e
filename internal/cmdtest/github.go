package cmdtest

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// GitHubActions makes the Env a GitHub Actions step with fresh, empty
// summary and output files, and returns the output file's path.
func (e *Env) GitHubActions() (outputPath string) {
	e.t.Helper()
	e.Setenv("GITHUB_ACTIONS", "true")
	e.Setenv("GITHUB_STEP_SUMMARY", e.WriteFile("gh/summary.md", ""))
	outputPath = e.WriteFile("gh/output", "")
	e.Setenv("GITHUB_OUTPUT", outputPath)
	return outputPath
}

// ReadGitHubOutput reads a $GITHUB_OUTPUT file the way the runner does
// (see ParseGitHubOutput), and fails the test when it cannot.
func ReadGitHubOutput(t testing.TB, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ParseGitHubOutput(data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ParseGitHubOutput reads the contents of a $GITHUB_OUTPUT file the way the
// runner does: name=value lines, or name<<DELIM, value lines, DELIM; a later
// value of a name replaces an earlier one.
func ParseGitHubOutput(data []byte) (map[string]string, error) {
	out := map[string]string{}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] == "" && i == len(lines)-1 {
			break
		}
		if name, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var val []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				val = append(val, lines[i])
			}
			if i == len(lines) {
				return nil, fmt.Errorf("heredoc %s never closed:\n%s", name, data)
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(lines[i], "=")
		if !ok {
			return nil, fmt.Errorf("malformed output line %q in:\n%s", lines[i], data)
		}
		out[name] = val
	}
	return out, nil
}

// RunnerCommands reads a step's log the way the GitHub Actions runner does
// and returns the lines it obeys as workflow commands: it reads lines that
// end at "\r\n", "\n" or a bare "\r"; a line is a command when it starts
// with "::" after white space, or holds the older "##[" anywhere
// (actions/runner#4692); between ::stop-commands::TOKEN and a line
// ::TOKEN:: it obeys none. Lines of two streams are read apart. trimmed says
// what is trimmed before "::": unicode.IsSpace as the runner, or more, to
// find what a cautious writer would treat as a command.
func RunnerCommands(trimmed func(rune) bool, logs ...string) []string {
	var ran []string
	for _, log := range logs {
		resume := ""
		lines := strings.FieldsFunc(strings.ReplaceAll(log, "\r\n", "\n"), func(r rune) bool { return r == '\n' || r == '\r' })
		for _, line := range lines {
			t := strings.TrimLeftFunc(line, trimmed)
			switch {
			case resume != "":
				if t == resume {
					resume = ""
				}
			case strings.HasPrefix(t, "::stop-commands::"):
				resume = "::" + strings.TrimPrefix(t, "::stop-commands::") + "::"
			case strings.HasPrefix(t, "::"), strings.Contains(line, "##["):
				ran = append(ran, line)
			}
		}
	}
	return ran
}

// ReadDotenv reads a dotenv report as GitLab does, KEY=value a line, and
// fails the test on a line of any other shape.
func ReadDotenv(t testing.TB, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("dotenv: %v", err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" {
			t.Fatalf("dotenv line %q is not KEY=value:\n%s", line, b)
		}
		out[k] = v
	}
	return out
}

// WantValues fails the test for each key of want whose value in got is
// another; what names the document (outputs, the dotenv report).
func WantValues(t testing.TB, what string, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s = %q, want %q (all: %v)", what, k, got[k], v, got)
		}
	}
}
