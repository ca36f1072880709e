package setup

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/testctl/testctl/pkg/atomicfile"
)

const (
	beginMarker = "<!-- testctl:begin -->"
	endMarker   = "<!-- testctl:end -->"
)

// target is the file one agent reads. head is the front matter of a file
// setup creates; a file that existed keeps its own.
type target struct {
	agent, path, head string
}

// description says when to use the skill or rule; no ": " in it, so that
// it stays a plain YAML scalar.
const description = "Run and debug this repository's end-to-end tests with testctl. Use it to start a test plan " +
	"and wait for its verdict, read why test cases failed with their network and console logs, and rerun what failed."

var targets = []target{
	{agent: "claude", path: ".claude/skills/testctl/SKILL.md",
		head: "---\nname: testctl\ndescription: " + description + "\n---\n\n"},
	{agent: "codex", path: "AGENTS.md"},
	{agent: "cursor", path: ".cursor/rules/testctl.mdc",
		head: "---\ndescription: " + description + "\nglobs:\nalwaysApply: false\n---\n\n"},
	{agent: "copilot", path: ".github/copilot-instructions.md"},
}

func agentNames() []string {
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = t.agent
	}
	return names
}

func targetOf(agent string) target {
	for _, t := range targets {
		if t.agent == agent {
			return t
		}
	}
	panic("unknown agent " + agent)
}

// section finds testctl's section in b: [start, end) covers both markers.
func section(b []byte) (start, end int, ok bool) {
	start = bytes.Index(b, []byte(beginMarker))
	if start < 0 {
		return 0, 0, false
	}
	n := bytes.Index(b[start:], []byte(endMarker))
	if n < 0 {
		return 0, 0, false
	}
	return start, start + n + len(endMarker), true
}

func hasMarker(b []byte) bool {
	return bytes.Contains(b, []byte(beginMarker)) || bytes.Contains(b, []byte(endMarker))
}

func wrap(body string) string { return beginMarker + "\n" + body + endMarker }

// apply is the file with body as testctl's section: in place of the old
// section, else appended after the file's text, else a new file.
func (t target) apply(old []byte, exists bool, body string) []byte {
	sec := wrap(body)
	if !exists {
		return []byte(t.head + sec + "\n")
	}
	if start, end, ok := section(old); ok {
		return []byte(string(old[:start]) + sec + string(old[end:]))
	}
	prefix := string(old)
	switch {
	case prefix == "":
	case strings.HasSuffix(prefix, "\n\n"):
	case strings.HasSuffix(prefix, "\n"):
		prefix += "\n"
	default:
		prefix += "\n\n"
	}
	return []byte(prefix + sec + "\n")
}

// stale says why the file differs from what setup writes, or "".
func (t target) stale(old []byte, exists bool, body string) string {
	switch _, _, ok := section(old); {
	case !exists:
		return "missing"
	case !ok:
		return "no testctl section"
	case string(t.apply(old, true, body)) != string(old):
		return "differs from what setup writes"
	}
	return ""
}

// remove takes testctl's section out of the file, and the file away when
// nothing but it (and the front matter setup wrote) was in it.
func (t target) remove(path string, old []byte, exists bool, log io.Writer) error {
	start, end, ok := section(old)
	if !exists || !ok {
		fmt.Fprintf(log, "%s has no testctl section: nothing to remove\n", t.path)
		return nil
	}
	// What is around the section stays byte for byte, but for the line ends
	// setup added when it appended the section at the end.
	before, after := string(old[:start]), string(old[end:])
	if after == "\n" {
		after = ""
		if strings.HasSuffix(before, "\n\n") {
			before = strings.TrimSuffix(before, "\n")
		}
	}
	rest := before + after
	if strings.TrimSpace(rest) == "" || (t.head != "" && rest == t.head) || (t.head != "" && rest == strings.TrimSuffix(t.head, "\n")) {
		if err := os.Remove(path); err != nil {
			return localError("removing %s: %w", t.path, err)
		}
		if filepath.Base(filepath.Dir(path)) == "testctl" {
			_ = os.Remove(filepath.Dir(path)) // the skill's own directory, when empty
		}
		fmt.Fprintf(log, "Removed %s\n", t.path)
		return nil
	}
	if err := atomicfile.Write(path, []byte(rest), 0o644); err != nil {
		return localError("writing %s: %w", t.path, err)
	}
	fmt.Fprintf(log, "Removed testctl's section of %s\n", t.path)
	return nil
}
