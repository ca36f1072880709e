package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/nextstep"
	"github.com/testctl/testctl/pkg/termtext"
	"github.com/testctl/testctl/pkg/verdict"
)

// Bounds of one tool result: an agent's context is small and a run of
// hundreds of test cases, or a network log, is not.
const (
	maxDataBytes = 48 << 10
	maxTextBytes = 12 << 10
)

// Result is the structured content of every tool: what the command's exit
// code means, the code, and the command's -o json document.
type Result struct {
	Verdict  string   `json:"verdict" jsonschema:"what the exit code means in a word: passed, failed, error, timeout, interrupted, terminated, started, ok, usage, auth, not-found, service, local"`
	ExitCode int      `json:"exitCode" jsonschema:"the exit code the same testctl command would end with (docs/exit-codes.md)"`
	Data     any      `json:"data,omitempty" jsonschema:"the document the command prints with -o json (a run detail, a list page, a log), service text sanitised"`
	RunIDs   []string `json:"runIds,omitempty" jsonschema:"the short ids of the runs this call started or waited for"`
	Cut      string   `json:"cut,omitempty" jsonschema:"what was left out to keep the result bounded, and which call gets more"`
}

// kind says how a tool's exit code reads: a tool that decides a verdict
// (start, wait, report, rerun) reports a failed run as a result, not a tool
// error; any other tool's non-zero code is an error.
type kind int

const (
	readKind kind = iota
	verdictKind
	startKind // started without waiting: success is "started"
)

// build turns a command's invocation into the tool's result: the verdict
// first, then the command's own story (stderr: the summary, the evidence of
// what did not pass, warnings), then what to do next; all bounded, the key
// redacted, service text sanitised.
func (s *server) build(inv invocation, k kind, known []string, more moreFunc) (*mcp.CallToolResult, Result) {
	res := Result{ExitCode: inv.code, Verdict: word(inv.code, k)}
	var cuts []string
	if doc := strings.TrimSpace(inv.stdout); doc != "" {
		var v any
		dec := json.NewDecoder(strings.NewReader(doc))
		dec.UseNumber()
		if err := dec.Decode(&v); err == nil {
			v = s.clean(v)
			res.RunIDs = runIDs(v)
			var cut string
			res.Data, cut = bound(v, maxDataBytes, more)
			if cut != "" {
				cuts = append(cuts, cut)
			}
		}
	}
	if len(res.RunIDs) == 0 {
		// A wait cut short before it read a run prints no document: the
		// runs are the ones asked for, or the ones the start announced.
		res.RunIDs = append(known, startedIDs(inv.stderr)...)
	}
	story, storyCut := boundText(s.redact(termtext.Sanitize(storyOf(inv.stderr))), maxTextBytes)
	if storyCut != "" {
		cuts = append(cuts, storyCut)
	}
	// The data, for clients that give the model only the text: the
	// command's table in what the story leaves of the bound.
	table, tableCut := boundTable(s.redact(termtext.Sanitize(inv.table)), maxTextBytes-len(story), more)
	if tableCut != "" {
		cuts = append(cuts, tableCut)
	}
	if table == "" && tableCut == "" && k == readKind && emptyList(res.Data) {
		table = "No entries match.\n"
	}
	res.Cut = strings.Join(cuts, "; ")

	var text strings.Builder
	fmt.Fprintf(&text, "Verdict: %s (exit code %d).\n", res.Verdict, res.ExitCode)
	for _, part := range []string{table, story} {
		if part != "" {
			text.WriteString("\n" + strings.TrimRight(part, "\n") + "\n")
		}
	}
	if res.Cut != "" {
		fmt.Fprintf(&text, "\nCut: %s\n", res.Cut)
	}
	if next := nextSteps(inv.code, k, res.RunIDs, inv.steps); next != "" {
		text.WriteString("\nNext: " + next + "\n")
	}
	return &mcp.CallToolResult{
		IsError: isError(inv.code, k),
		Content: []mcp.Content{&mcp.TextContent{Text: text.String()}},
	}, res
}

// word is verdict.Word for the tools that decide a verdict; for the others
// a zero exit code only says the call worked.
func word(code int, k kind) string {
	if code == exitcode.OK && k == readKind {
		return "ok"
	}
	return verdict.Word(code, k == startKind)
}

// isError: a verdict (passed, failed, errored, a timeout or a cancelled
// wait, whose runs go on) is a result; a call that could not be made or
// answered is a tool error.
func isError(code int, k kind) bool {
	if k == verdictKind && slices.Contains([]int{exitcode.OK, exitcode.Failed, exitcode.RunError, exitcode.Timeout,
		exitcode.Interrupted, exitcode.Terminated}, code) {
		return false
	}
	return code != exitcode.OK
}

// progressLine matches the plain view's lines ("run r1a2b3 ✓ Log in …"),
// already sent as progress notifications while the call ran: the text
// keeps the summary and the story, not the log of the wait.
var progressLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^run \S+ `) })

// storyOf is the command's stderr without the progress lines.
func storyOf(stderr string) string {
	var b strings.Builder
	for line := range strings.Lines(stderr) {
		if progressLine().MatchString(line) {
			continue
		}
		b.WriteString(line)
	}
	return strings.TrimLeft(b.String(), "\n")
}

// nextSteps names the tool calls that follow from an outcome, as steps
// words them: a call the command's own story suggested is not repeated.
func nextSteps(code int, k kind, ids []string, steps *toolSteps) string {
	if steps == nil {
		steps = newToolSteps()
	}
	runs := ids
	if len(runs) == 0 {
		runs = []string{"RUN_ID"} // the run's short id
	}
	wait := func() string {
		if call := steps.Step(nextstep.Wait(nil, runs)); call != "" {
			return call
		}
		return "the wait_run call above"
	}
	switch code {
	case exitcode.OK:
		if k == startKind {
			return "wait for the verdict with " + wait() + "."
		}
		return ""
	case exitcode.Failed, exitcode.RunError:
		var reruns []nextstep.Step
		for _, id := range runs {
			reruns = append(reruns, nextstep.Command("run", "rerun", id, "--failed-only", "--wait"))
		}
		rerun := strings.Join(nextstep.Steps(steps, reruns), "; ")
		if rerun == "" {
			rerun = "the rerun_failed call above"
		}
		return "read the story above for each test case that did not pass (get_logs with its test case run id, " +
			"kind network, console or api-calls, shows more); fix the cause, then rerun only what did not pass with " + rerun + "."
	case exitcode.Timeout:
		return "the runs go on; resume the wait (with a longer timeout) with " + wait() + "."
	case exitcode.Interrupted, exitcode.Terminated:
		return "the wait was cancelled but the runs go on; resume it with " + wait() + "."
	case exitcode.Usage:
		return "fix the argument the message names and call again: nothing was sent."
	case exitcode.Auth:
		login := steps.Step(nextstep.Step{Args: []string{"auth", "login"}, ForUser: true})
		if login == "" {
			login = "as said above"
		}
		return "the API key is missing or refused, which an agent cannot fix: the user must store one " +
			login + " (or set TESTCTL_API_KEY) and restart the server."
	case exitcode.NotFound:
		return "check the id: list_runs or list_test_cases show the ones that exist."
	case exitcode.Service:
		return "the service failed or answered what testctl cannot use; the message says which. Try again later, or list_runs to see what exists."
	}
	return ""
}

func quoteIDs(ids []string) string {
	if len(ids) == 0 {
		return "[the run's short id]"
	}
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// runIDs are the short ids of the runs a document describes: a run detail
// or a start's answer ({"run": {"shortId"}}), or several of them.
func runIDs(v any) []string {
	var ids []string
	var visit func(v any)
	visit = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				visit(e)
			}
		case map[string]any:
			if run, ok := x["run"].(map[string]any); ok {
				visit(run)
				return
			}
			if _, isRun := x["runTestCases"]; isRun || x["url"] != nil {
				if id, ok := x["shortId"].(string); ok && id != "" {
					ids = append(ids, id)
				}
			}
		}
	}
	visit(v)
	return ids
}

// startedLine is how a start announces a run on stderr.
var startedLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\S+ Started run (\S+)`) })

func startedIDs(stderr string) []string {
	var ids []string
	for _, m := range startedLine().FindAllStringSubmatch(stderr, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// clean sanitises every string of a service document as for a terminal (no
// control characters, no bidi overrides) and redacts the key.
func (s *server) clean(v any) any {
	switch x := v.(type) {
	case string:
		return s.redact(termtext.Sanitize(x))
	case []any:
		for i := range x {
			x[i] = s.clean(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[s.redact(termtext.SanitizeLine(k))] = s.clean(e)
		}
		return out
	}
	return v
}

// redact removes the API key from text: the commands never print it, and a
// service that echoes it back is not trusted to not.
func (s *server) redact(text string) string {
	key := s.key()
	if len(key) < 4 {
		return text
	}
	return strings.ReplaceAll(text, key, "[redacted]")
}

// moreFunc names the call that gets what a cut left out, given the name of
// the list cut and how many of its entries were kept.
type moreFunc func(field string, kept, total int) string

// bound keeps a document within max bytes of JSON: the longest list in it
// (the document itself, or one of its fields: the runs of a page, a run's
// test cases, a log's entries) is cut from its end, and the cut says so.
func bound(v any, max int, more moreFunc) (any, string) {
	if size(v) <= max {
		return v, ""
	}
	field, list, set := longestList(&v)
	if list == nil {
		return nil, fmt.Sprintf("the document (%d bytes) is over the %d-byte bound and was left out", size(v), max)
	}
	lo, hi := 0, len(list)
	for lo < hi { // the most entries that fit
		mid := (lo + hi + 1) / 2
		set(list[:mid])
		if size(v) <= max {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	set(list[:lo])
	if size(v) > max {
		return nil, fmt.Sprintf("the document (%d bytes) is over the %d-byte bound and was left out", size(v), max)
	}
	cut := fmt.Sprintf("%s: kept the first %d of %d entries (results are bounded to %d KiB)", field, lo, len(list), max>>10)
	if more != nil {
		if m := more(field, lo, len(list)); m != "" {
			cut += "; " + m
		}
	}
	return v, cut
}

// longestList finds the biggest list of a document, at its top or in one
// of its fields, and how to replace it.
func longestList(doc *any) (string, []any, func([]any)) {
	switch x := (*doc).(type) {
	case []any:
		return "data", x, func(l []any) { *doc = l }
	case map[string]any:
		best, bestSize := "", -1
		for k, e := range x {
			if l, ok := e.([]any); ok && len(l) > 0 {
				if n := size(l); n > bestSize {
					best, bestSize = k, n
				}
			}
		}
		if best == "" {
			return "", nil, nil
		}
		return "data." + best, x[best].([]any), func(l []any) { x[best] = l }
	}
	return "", nil, nil
}

func size(v any) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return b.Len()
}

// boundText keeps text within max bytes, cut at a line's end.
func boundText(text string, max int) (string, string) {
	if len(text) <= max {
		return text, ""
	}
	kept := text[:max]
	if i := strings.LastIndexByte(kept, '\n'); i > 0 {
		kept = kept[:i+1]
	}
	return kept, fmt.Sprintf("the story was cut after %d of %d bytes; run_report with a smaller evidence, or get_logs of one test case, reads the rest", len(kept), len(text))
}

// boundTable keeps a table within max bytes: its header and whole rows
// from its top; the cut says how many rows were kept and, through more,
// which call reads on.
func boundTable(table string, limit int, more moreFunc) (string, string) {
	if len(table) <= limit {
		return table, ""
	}
	lines := strings.SplitAfter(strings.TrimRight(table, "\n"), "\n")
	kept, n := "", 0
	for _, line := range lines {
		if len(kept)+len(line) > limit {
			break
		}
		kept += line
		n++
	}
	rows, total := max(n-1, 0), len(lines)-1
	cut := fmt.Sprintf("the table: kept the first %d of %d rows (the text is bounded to %d KiB; the structured content holds more)",
		rows, total, maxTextBytes>>10)
	if more != nil {
		if m := more("the table", rows, total); m != "" {
			cut += "; " + m
		}
	}
	return kept, cut
}

// emptyList reports whether a document is a list with no entries, or holds
// one as its only list (a page of no runs, a log of no entries).
func emptyList(doc any) bool {
	if doc == nil {
		return false
	}
	_, list, _ := longestList(&doc)
	if l, ok := doc.([]any); ok {
		return len(l) == 0
	}
	return list == nil && hasEmptyList(doc)
}

func hasEmptyList(doc any) bool {
	m, ok := doc.(map[string]any)
	if !ok {
		return false
	}
	for _, v := range m {
		if l, ok := v.([]any); ok && len(l) == 0 {
			return true
		}
	}
	return false
}

// firstRows is a table with its header and its first n rows, as the
// document is cut to its first n entries.
func firstRows(table string, n int) string {
	lines := strings.SplitAfter(table, "\n")
	if len(lines) <= n+1 {
		return table
	}
	return strings.Join(lines[:n+1], "")
}
