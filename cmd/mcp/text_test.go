package mcp_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	mcpcmd "github.com/testctl/testctl/cmd/mcp"
	"github.com/testctl/testctl/internal/cmdtest"
)

// TestTextCarriesTheData (issue 42, point 1): many clients give the model
// only a result's text, so every tool's text carries the table its command
// prints off a terminal, byte for byte, beside the structured content.
func TestTextCarriesTheData(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	ctx := context.Background()
	id := e.StartRun(t, "pln-failing_sandbox")
	a.call(t, ctx, "wait_run", map[string]any{"run_ids": []string{id}})

	for _, c := range []struct {
		tool string
		args map[string]any
		cli  []string
	}{
		{"list_runs", map[string]any{"limit": 3}, []string{"run", "list", "--limit", "3"}},
		{"list_test_cases", map[string]any{"limit": 3}, []string{"testcase", "list", "--limit", "3"}},
		{"get_logs", map[string]any{"test_case_run": id + "-3", "kind": "network", "limit": 200}, []string{"logs", id + "-3", "--kind", "network"}},
		{"get_logs", map[string]any{"test_case_run": id + "-3", "kind": "console"}, []string{"logs", id + "-3", "--kind", "console"}},
		{"tunnel_status", map[string]any{"runner_id": "runner-degraded"}, []string{"tunnel", "status", "runner-degraded"}},
		{"get_run", map[string]any{"run_id": id}, []string{"run", "get", id}},
		{"run_report", map[string]any{"run_ids": []string{id}}, []string{"run", "report", id}},
		{"wait_run", map[string]any{"run_ids": []string{id}}, []string{"run", "wait", id}},
	} {
		r := a.call(t, ctx, c.tool, c.args)
		table := e.Run(c.cli...).Stdout
		if strings.TrimSpace(table) == "" {
			t.Fatalf("%v printed no table", c.cli)
		}
		if !strings.Contains(r.text, table) {
			t.Errorf("%s: the text lacks the table of `testctl %s`:\n%s\ntext:\n%s", c.tool, strings.Join(c.cli, " "), table, r.text)
		}
		if r.data.Data == nil {
			t.Errorf("%s: no document in the structured content", c.tool)
		}
	}

	// The state a read reports is in the words the model reads.
	tunnel := a.call(t, ctx, "tunnel_status", map[string]any{"runner_id": "runner-degraded"})
	cmdtest.Contains(t, "tunnel_status", tunnel.text, "Health:       degraded")
	if doc, _ := tunnel.data.Data.(map[string]any); tunnel.isError || doc["status"] != "degraded" {
		t.Errorf("tunnel_status: %+v", tunnel.data)
	}

	// A log cut to its limit is cut in the text as in the document.
	logs := a.call(t, ctx, "get_logs", map[string]any{"test_case_run": id + "-3", "kind": "network", "limit": 2})
	if rows := strings.Count(logs.text, "\thttps://"); rows != 2 {
		t.Errorf("get_logs with limit 2: %d rows in the text:\n%s", rows, logs.text)
	}

	// Runs started without a wait: their ids and URLs.
	started := a.call(t, ctx, "start_run", map[string]any{"plans": []string{"pln-passing_sandbox"}, "wait": false})
	if len(started.data.RunIDs) != 1 || !strings.Contains(started.text, started.data.RunIDs[0]+"\thttps://") {
		t.Errorf("start_run without wait:\n%s", started.text)
	}
	// A test case created: its id.
	created := a.call(t, ctx, "create_test_case", map[string]any{"app": "app_sandbox-web", "name": "Apply a coupon", "goal": "Apply a coupon"})
	if doc, _ := created.data.Data.(map[string]any); doc == nil || !strings.Contains(created.text, "\n"+doc["id"].(string)+"\n") {
		t.Errorf("create_test_case:\n%s", created.text)
	}
	// An empty page says so.
	none := a.call(t, ctx, "list_runs", map[string]any{"branch": "no-such-branch"})
	cmdtest.Contains(t, "an empty list_runs", none.text, "No entries match.")
}

// toolCallLine is a next step an MCP result names: a tool and its
// arguments as a JSON object.
var toolCallLine = regexp.MustCompile(`\b([a-z]+_[a-z_]+) (\{[^{}\n]*\})`)

// TestNextStepsNameTools (issue 42, point 2): under the server the next
// steps the commands suggest are calls of its tools, with the arguments of
// their input schemas, each once; no shell command is left but the ones
// only the user can run, marked as theirs.
func TestNextStepsNameTools(t *testing.T) {
	e := cmdtest.New(t)
	a := connect(t, e, false)
	ctx := context.Background()

	failed := a.call(t, ctx, "start_run", map[string]any{"plans": []string{"pln-failing_sandbox"}})
	id := failed.data.RunIDs[0]
	for _, call := range []string{
		`get_logs {"test_case_run": "` + id + `-2", "kind": "network", "status": "errors"}`,
		`get_logs {"test_case_run": "` + id + `-2", "kind": "console"}`,
		`get_logs {"test_case_run": "` + id + `-3", "kind": "network", "status": "errors"}`,
		`get_run {"run_id": "` + id + `", "issues": true}`,
		`rerun_failed {"run_id": "` + id + `"}`,
	} {
		if n := strings.Count(failed.text, call); n != 1 {
			t.Errorf("%s is suggested %d times, want once:\n%s", call, n, failed.text)
		}
	}
	timedOut := a.call(t, ctx, "wait_run", map[string]any{"run_ids": []string{e.StartRun(t, "pln-slow_sandbox")}, "timeout": "1m"})
	runWithLogs := a.call(t, ctx, "get_logs", map[string]any{"test_case_run": id, "kind": "network"})
	cmdtest.Contains(t, "get_logs of a run's id", runWithLogs.text, `Read one with: get_logs {"test_case_run": "`+id+`-2", "kind": "network"}`)
	usage := a.call(t, ctx, "start_run", map[string]any{"plans": []string{"pln-passing_sandbox"}, "apps": []string{"bad"}})
	cmdtest.Contains(t, "a usage error", usage.text, "start_run")
	caseAsRun := a.call(t, ctx, "get_run", map[string]any{"run_id": id + "-2"})
	cmdtest.Contains(t, "get_run of a test case's id", caseAsRun.text, `get_run {"run_id": "`+id+`"} shows the run`,
		`get_logs {"test_case_run": "`+id+`-2", "kind": "network"} the test case's requests`)
	noPlan := a.call(t, ctx, "start_run", map[string]any{"plans": []string{"pln-nope_a1b2"}})
	cmdtest.Contains(t, "start_run of no plan", noPlan.text, "list_runs {} shows the plans")

	e.Setenv("TESTCTL_API_KEY", "not-a-key")
	refused := connect(t, e, true).call(t, ctx, "list_runs", map[string]any{})
	cmdtest.Contains(t, "an auth error", refused.text, "(for the user, in a shell: testctl auth login)",
		"Store one with `testctl auth login` (for the user, in a shell)")
	e.Setenv("TESTCTL_API_KEY", "")
	keyless := connect(t, e, true).call(t, ctx, "list_runs", map[string]any{})
	cmdtest.Contains(t, "no key", keyless.text, "no API key configured. Run `testctl auth login` (for the user, in a shell)")

	schemas := inputSchemas(t, a)
	for _, r := range []result{failed, timedOut, runWithLogs, usage, caseAsRun, noPlan, refused, keyless} {
		if cmds := shellCommands(r.text); len(cmds) > 0 {
			t.Errorf("shell commands in the text: %q\n%s", cmds, r.text)
		}
		for _, m := range toolCallLine.FindAllStringSubmatch(r.text, -1) {
			checkCall(t, schemas, m[1], m[2])
		}
	}
	if n := strings.Count(timedOut.text, `wait_run {"run_ids": ["`+timedOut.data.RunIDs[0]+`"]}`); n != 1 {
		t.Errorf("the resumed wait is suggested %d times, want once:\n%s", n, timedOut.text)
	}

	// Every call the commands' steps can become names a tool and its
	// arguments as the schemas give them.
	for tool, args := range mcpcmd.SuggestedArgs() {
		props, ok := schemas[tool]
		if !ok {
			t.Errorf("next steps name %s, which is no tool", tool)
		}
		for _, arg := range args {
			if !slices.Contains(props, arg) {
				t.Errorf("next steps give %s the argument %q, not in its input schema %v", tool, arg, props)
			}
		}
	}
}

// shellCommands are the testctl command lines in a text, but the ones
// marked as the user's.
func shellCommands(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		if strings.Contains(line, "testctl ") && !strings.Contains(line, "for the user") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// inputSchemas are the argument names of each tool's input schema.
func inputSchemas(t *testing.T, a *agent) map[string][]string {
	t.Helper()
	list, err := a.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, tool := range list.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		for name := range schema.Properties {
			out[tool.Name] = append(out[tool.Name], name)
		}
	}
	return out
}

func checkCall(t *testing.T, schemas map[string][]string, tool, args string) {
	t.Helper()
	props, ok := schemas[tool]
	if !ok {
		t.Errorf("%s %s: no such tool", tool, args)
		return
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		t.Errorf("%s %s: the arguments are not a JSON object: %v", tool, args, err)
	}
	for k := range m {
		if !slices.Contains(props, k) {
			t.Errorf("%s %s: %q is not in its input schema %v", tool, args, k, props)
		}
	}
}
