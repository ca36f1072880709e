// Package quarantine reads the quarantine file (--quarantine, by default
// .testctl/quarantine.yaml when it exists): test cases whose failures do
// not fail the gate until a date, each with an owner and a reason, so that
// a quarantine is code that is reviewed and ends, never a test hidden for
// good. What an entry means for the verdict is pkg/verdict's.
package quarantine

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/verdict"
)

// DefaultFile is read when --quarantine is not given and it exists.
const DefaultFile = ".testctl/quarantine.yaml"

// keys are an entry's keys; required are those it must have.
var (
	keys     = []string{"name", "plan", "reason", "owner", "until"}
	required = []string{"name", "owner", "until"}
)

// Load reads the quarantine file at path. given says --quarantine named
// it: a missing file is then a usage error (exit 2); the default file that
// does not exist is no quarantine. Every mistake is a usage error naming
// the file and the line, so that it is found before anything is started.
func Load(path string, given bool) ([]verdict.Quarantine, error) {
	if path == "" {
		path = DefaultFile
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !given:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, exitcode.FlagErrorf("--quarantine %s: no such file (create it, or drop --quarantine)", path)
	case err != nil:
		return nil, exitcode.FlagErrorf("--quarantine %s: %v", path, err)
	}
	return Parse(path, data)
}

// Parse reads the entries of a quarantine file: a YAML list of mappings.
//
//   - name: Pay with a declined card   # the test case's name, exactly
//     plan: pln-checkout               # optional: its plan's short id or name
//     owner: "@alice"
//     reason: the payment provider's sandbox is down (INC-123)
//     until: 2026-12-31                # the last day it holds (UTC)
func Parse(path string, data []byte) ([]verdict.Quarantine, error) {
	bad := func(line int, format string, a ...any) error {
		return &exitcode.UsageError{Err: fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, a...))}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := 1, err.Error()
		if rest, ok := strings.CutPrefix(msg, "yaml: line "); ok {
			if n, after, ok := strings.Cut(rest, ": "); ok {
				_, _ = fmt.Sscan(n, &line)
				msg = after
			}
		}
		return nil, bad(max(line, errorLine(data)), "not valid YAML: %s", msg)
	}
	if len(doc.Content) == 0 {
		return nil, nil // an empty file quarantines nothing
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, bad(list.Line, "the file is a list of entries, each starting with \"- name:\"")
	}
	var out []verdict.Quarantine
	for _, e := range list.Content {
		if e.Kind != yaml.MappingNode {
			return nil, bad(e.Line, "an entry is a mapping of %s", strings.Join(keys, ", "))
		}
		q := verdict.Quarantine{Line: e.Line}
		seen := map[string]bool{}
		for i := 0; i+1 < len(e.Content); i += 2 {
			k, v := e.Content[i], e.Content[i+1]
			if v.Kind != yaml.ScalarNode {
				return nil, bad(v.Line, "%s must be a single value", k.Value)
			}
			if seen[k.Value] {
				return nil, bad(k.Line, "%s is given twice in one entry", k.Value)
			}
			seen[k.Value] = true
			val := strings.TrimSpace(v.Value)
			switch k.Value {
			case "name":
				q.Name = v.Value // matched exactly, as the service names it
			case "plan":
				q.Plan = val
			case "reason":
				q.Reason = val
			case "owner":
				q.Owner = val
			case "until":
				d, err := time.Parse(time.DateOnly, val)
				if err != nil {
					return nil, bad(v.Line, "until %q is not a date: write it as YYYY-MM-DD, such as 2026-12-31", val)
				}
				q.Until = d
			default:
				hint := ""
				if near := nearest(k.Value); near != "" {
					hint = fmt.Sprintf(" (did you mean %s?)", near)
				}
				return nil, bad(k.Line, "unknown key %q%s: an entry has %s", k.Value, hint, strings.Join(keys, ", "))
			}
		}
		for _, k := range required {
			if !seen[k] || k == "name" && strings.TrimSpace(q.Name) == "" {
				return nil, bad(e.Line, "the entry has no %s: every entry needs %s", k, strings.Join(required, ", "))
			}
		}
		out = append(out, q)
	}
	return out, nil
}

// Expired are the warnings of the entries whose last day has passed: their
// test cases' failures fail the gate again. Said when the file is read, so
// that whoever wrote or kept the date sees it.
func Expired(path string, entries []verdict.Quarantine, now time.Time) []string {
	var out []string
	for _, q := range entries {
		if q.Expired(now) {
			out = append(out, fmt.Sprintf("%s:%d: the quarantine of %q ended on %s: its failures fail the gate again (move until later, or remove the entry)",
				path, q.Line, q.Name, q.Until.Format(time.DateOnly)))
		}
	}
	return out
}

// errorLine is the first line at which the file stops being valid YAML,
// or 0: yaml.v3 reports some errors where the block they break began, and
// the shortest prefix of whole lines that fails to parse ends on the line
// to fix (as pkg/config finds it for the config file).
func errorLine(data []byte) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	var v any
	for n := 1; n <= len(lines); n++ {
		if yaml.Unmarshal(bytes.Join(lines[:n], nil), &v) != nil {
			return n
		}
	}
	return 0
}

// nearest is the key one edit or a case away from k, "" when none is.
func nearest(k string) string {
	for _, key := range keys {
		if strings.EqualFold(k, key) || strings.EqualFold(strings.TrimSuffix(k, "s"), key) || len(k) > 2 && distance(k, key) == 1 {
			return key
		}
	}
	return ""
}

// distance is the edit distance of two short ASCII words.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
