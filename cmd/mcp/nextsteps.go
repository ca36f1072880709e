package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/testctl/testctl/pkg/nextstep"
)

// toolSteps words the next steps of the commands a call runs as calls of
// this server's tools (`get_logs {"test_case_run": "r1-2", "kind":
// "network"}`): an agent has tools, not a shell. Each call is suggested
// once per result; a step only a person can take (auth login) stays a
// command, marked as the user's.
type toolSteps struct {
	mu   sync.Mutex
	said map[string]bool
}

var _ nextstep.Renderer = (*toolSteps)(nil)

func newToolSteps() *toolSteps { return &toolSteps{said: map[string]bool{}} }

func (t *toolSteps) Step(s nextstep.Step) string {
	line := userStep(s)
	if call, ok := toolCall(s.Args); ok && !s.ForUser {
		line = call
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.said[line] {
		return ""
	}
	t.said[line] = true
	return line
}

// Inline is the call, or the user's command, within a sentence.
func (t *toolSteps) Inline(s nextstep.Step) string {
	if call, ok := toolCall(s.Args); ok && !s.ForUser {
		t.mu.Lock()
		t.said[call] = true
		t.mu.Unlock()
		return call
	}
	return nextstep.Shell{}.Inline(nextstep.Step{Args: s.Args}) + " (for the user, in a shell)"
}

// Usage names the tool whose input schema lists the arguments, for a
// command that is one.
func (t *toolSteps) Usage(path string) string {
	if tool, ok := commandTools[strings.TrimPrefix(path, "testctl ")]; ok {
		return "The arguments of " + tool.name + " are in its input schema."
	}
	return ""
}

// userStep is a step for the person at the other end of the agent.
func userStep(s nextstep.Step) string {
	return "(for the user, in a shell: " + nextstep.Shell{}.Step(nextstep.Step{Args: s.Args}) + ")"
}

// commandTool is how a command line maps onto a tool: the argument its
// short ids go to, and the argument of each flag.
type commandTool struct {
	name  string
	ids   string // the argument of the ids; "" when the command takes none
	list  bool   // ids is an array
	flags map[string]toolArg
}

// toolArg is a tool's argument for a flag; a flag without a name is the
// tool's own default (rerun_failed reruns the failed ones and waits).
type toolArg struct {
	name string
	kind argKind
}

type argKind int

const (
	stringArg argKind = iota
	boolArg
	intArg
	listArg
)

// commandTools are the commands whose next steps a tool takes, the
// inverse of the command lines the tools run (tools.go); a test checks
// every name against the tools' input schemas.
var commandTools = map[string]commandTool{
	"logs": {name: "get_logs", ids: "test_case_run", flags: map[string]toolArg{
		"kind": {name: "kind"}, "status": {name: "status"}, "url": {name: "url"},
		"warnings": {name: "warnings", kind: boolArg}, "info": {name: "info", kind: boolArg}, "full": {name: "full", kind: boolArg}}},
	"run get": {name: "get_run", ids: "run_id", flags: map[string]toolArg{
		"issues": {name: "issues", kind: boolArg}, "test-cases": {name: "test_cases"}}},
	"run wait":   {name: "wait_run", ids: "run_ids", list: true, flags: map[string]toolArg{"timeout": {name: "timeout"}}},
	"run report": {name: "run_report", ids: "run_ids", list: true},
	"run rerun": {name: "rerun_failed", ids: "run_id", flags: map[string]toolArg{
		"failed-only": {kind: boolArg}, "wait": {kind: boolArg}}},
	"run list": {name: "list_runs", flags: map[string]toolArg{
		"plan": {name: "plan"}, "status": {name: "status"}, "result": {name: "result"}, "branch": {name: "branch"},
		"trigger": {name: "trigger"}, "limit": {name: "limit", kind: intArg}, "offset": {name: "offset", kind: intArg}}},
	"testcase list": {name: "list_test_cases", flags: map[string]toolArg{
		"app": {name: "app"}, "enabled": {name: "enabled"}, "label": {name: "labels", kind: listArg},
		"limit": {name: "limit", kind: intArg}, "offset": {name: "offset", kind: intArg}}},
	"run start": {name: "start_run", flags: map[string]toolArg{
		"plan": {name: "plans", kind: listArg}, "test-case": {name: "test_cases", kind: listArg}, "app": {name: "apps", kind: listArg}}},
	"testcase create": {name: "create_test_case", flags: map[string]toolArg{
		"app": {name: "app"}, "name": {name: "name"}, "goal": {name: "goal"}, "expected-result": {name: "expected_result"},
		"config": {name: "configs", kind: listArg}, "scenario": {name: "scenario"}, "resume-from": {name: "resume_from"},
		"wait-for": {name: "wait_for", kind: listArg}}},
	"tunnel status": {name: "tunnel_status", ids: "runner_id"},
}

// toolCall is the tool call of a command line, its arguments in the order
// of the line; false when no tool takes it as it is.
func toolCall(args []string) (string, bool) {
	var tool commandTool
	var rest []string
	for n := min(2, len(args)); n > 0; n-- {
		if t, ok := commandTools[strings.Join(args[:n], " ")]; ok {
			tool, rest = t, args[n:]
			break
		}
	}
	if tool.name == "" {
		return "", false
	}
	call := &orderedArgs{}
	var ids []string
	flags := true
	for i := 0; i < len(rest); i++ {
		word := rest[i]
		switch {
		case flags && word == "--":
			flags = false
		case flags && strings.HasPrefix(word, "--"):
			name, value, hasValue := strings.Cut(strings.TrimPrefix(word, "--"), "=")
			arg, ok := tool.flags[name]
			if !ok {
				return "", false
			}
			if arg.kind == boolArg {
				if !hasValue {
					value = "true"
				}
			} else if !hasValue {
				if i+1 == len(rest) {
					return "", false
				}
				i++
				value = rest[i]
			}
			if arg.name != "" && !call.set(arg, value) {
				return "", false
			}
		default:
			ids = append(ids, word)
		}
	}
	switch {
	case tool.ids == "" && len(ids) > 0, !tool.list && len(ids) > 1, tool.ids != "" && len(ids) == 0:
		return "", false
	case tool.list:
		call.put(tool.ids, ids, true)
	case tool.ids != "":
		call.put(tool.ids, ids[0], true)
	}
	return tool.name + " " + call.String(), true
}

// orderedArgs are a tool call's arguments in the order they were given,
// the ids first.
type orderedArgs struct {
	keys   []string
	values map[string]any
}

func (o *orderedArgs) put(key string, value any, first bool) {
	if o.values == nil {
		o.values = map[string]any{}
	}
	if _, ok := o.values[key]; !ok {
		if first {
			o.keys = slices.Insert(o.keys, 0, key)
		} else {
			o.keys = append(o.keys, key)
		}
	}
	o.values[key] = value
}

// set puts a flag's value as its argument's type; false when it is not one.
func (o *orderedArgs) set(arg toolArg, value string) bool {
	switch arg.kind {
	case boolArg:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return false
		}
		o.put(arg.name, b, false)
	case intArg:
		n, err := strconv.Atoi(value)
		if err != nil {
			return false
		}
		o.put(arg.name, n, false)
	case listArg:
		list, _ := o.values[arg.name].([]string)
		o.put(arg.name, append(list, value), false)
	default:
		o.put(arg.name, value, false)
	}
	return true
}

// String is the arguments as one JSON object, keys in order.
func (o *orderedArgs) String() string {
	var b strings.Builder
	b.WriteString("{")
	for i, k := range o.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %s", compactJSON(k), compactJSON(o.values[k]))
	}
	b.WriteString("}")
	return b.String()
}

func compactJSON(v any) string {
	if list, ok := v.([]string); ok {
		words := make([]string, len(list))
		for i, w := range list {
			words[i] = compactJSON(w)
		}
		return "[" + strings.Join(words, ", ") + "]"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}
