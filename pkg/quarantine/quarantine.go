// Package quarantine reads the quarantine file (--quarantine, by default
// .testctl/quarantine.yaml when it exists): test cases whose failures do
// not fail the gate until a date, each with an owner and a reason, so that
// a quarantine is code that is reviewed and ends, never a test hidden for
// good. What an entry means for the verdict is pkg/verdict's.
package quarantine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/userfile"
	"github.com/testctl/testctl/pkg/verdict"
	"github.com/testctl/testctl/pkg/yamlcheck"
)

// DefaultFile is read when --quarantine is not given and it exists.
const DefaultFile = ".testctl/quarantine.yaml"

// keys are an entry's keys; required are those it must have.
var (
	keys     = []string{"name", "plan", "reason", "owner", "until"}
	required = []string{"name", "owner", "until"}
)

// MaxFileBytes bounds the quarantine file: thousands of entries take a few
// hundred KiB.
const MaxFileBytes = 4 << 20

// Load reads the quarantine file at path, until ctx ends. given says
// --quarantine named it: a missing file is then a usage error (exit 2),
// and it may be a pipe (<(…)); the default file that does not exist is no
// quarantine, and one that is not a regular file is refused. Every mistake
// in it is a usage error naming the file and the line, so that it is found
// before anything is started; a file that cannot be read within its bound
// is exit 8.
func Load(ctx context.Context, path string, given bool) ([]verdict.Quarantine, error) {
	if path == "" {
		path = DefaultFile
	}
	data, err := userfile.Read(ctx, path, userfile.Rule{Max: MaxFileBytes, Regular: !given})
	name := "the quarantine file " + path
	if given {
		name = "--quarantine " + path
	}
	switch {
	case errors.Is(err, fs.ErrNotExist) && !given:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, exitcode.FlagErrorf("--quarantine %s: no such file (create it, or drop --quarantine)", path)
	case err != nil && ctx.Err() != nil:
		return nil, err // the signal's code
	case err != nil:
		return nil, &exitcode.Error{Code: exitcode.Local, Err: fmt.Errorf("reading %s: %w", name, withoutPath(err))}
	}
	return Parse(path, data)
}

// withoutPath is err without the path an *fs.PathError repeats.
func withoutPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
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
		line, msg, _ := yamlcheck.Locate(err, data)
		return nil, bad(max(line, 1), "not valid YAML: %s", msg)
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

// nearest is the key one edit, a case or a plural away from k, "" when
// none is.
func nearest(k string) string {
	for _, key := range keys {
		if strings.EqualFold(strings.TrimSuffix(k, "s"), key) {
			return key
		}
	}
	if len(k) <= 2 {
		return ""
	}
	return yamlcheck.Nearest(k, keys, 1)
}
