package e2e_test

import (
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// Every invalid input exits 2, names what is wrong, and starts nothing.
func TestInvalidInputStartsNothing(t *testing.T) {
	e := cmdtest.New(t)
	badJSON := e.WriteFile("bad.json", "[\n  {\"applicationShortId\": \"app_sandbox-web\"},\n  {\"applicationShortId\": \"app_x\",}\n]")
	typeErr := e.WriteFile("type.json", "[\n  {\"applicationShortId\": 42}\n]")
	unknown := e.WriteFile("unknown.json", "[{\"applicationShortId\": \"app_x\"},\n {\"applicationId\": \"app_y\"}]")
	object := e.WriteFile("object.json", `{"applicationShortId": "app_x"}`)
	badEntry := e.WriteFile("entry.json", "[\n\n  {\"applicationShortId\": \"app_x\", \"environment\": {\"shortId\": \"staging\"}}]")
	trailing := e.WriteFile("trailing.json", `[{"applicationShortId": "app_x"}] []`)
	params := e.WriteFile("params.json", "{\n  \"configs\": {},\n  \"config\": {}\n}")
	paramsType := e.WriteFile("ptype.json", `{"configs": [1]}`)
	paramsEnv := e.WriteFile("penv.json", `{"configsByEnvironment": {"env_sandbox-staging": {}}}`)
	empty := e.WriteFile("empty.json", "  \n")

	tests := []struct {
		name  string
		stdin string
		args  []string
		want  []string
	}{
		{"no plan", "", nil, []string{"--plan PLN or --test-case ID"}},
		{"bad plan", "", []string{"--plan", "checkout"}, []string{"--plan", "not a test plan short id"}},
		{"both", "", []string{"--plan", "pln_x", "--test-case", "x"}, []string{"--plan and --test-case"}},
		{"bad trigger", "", []string{"--plan", "pln_x", "--trigger", "CRON"}, []string{"--trigger", "API, CODEHOST"}},
		{"codehost rule", "", []string{"--plan", "pln_x", "--trigger", "CODEHOST", "--actor", "me"},
			[]string{"--branch, --commit, --commit-message, --repository"}},
		{"bad app spec", "", []string{"--plan", "pln_x", "--app", "app_x,env=env_s,env=env_t"}, []string{"--app", `key "env" given twice`}},
		{"comma in a url", "", []string{"--plan", "pln_x", "--app", "app_x,url=https://x.example.com/?a=1,b=2"}, []string{"--app", `unknown key "b"`, "--applications FILE"}},
		{"missing file", "", []string{"--plan", "pln_x", "--applications", "/nonexistent.json"}, []string{"--applications", "no such file"}},
		{"syntax error", "", []string{"--plan", "pln_x", "--applications", badJSON}, []string{"--applications " + badJSON + ": line 3, column 34", "invalid character '}'"}},
		{"type error", "", []string{"--plan", "pln_x", "--applications", typeErr}, []string{"line 2, column", "applicationShortId: expected a string, got a JSON number"}},
		{"unknown field", "", []string{"--plan", "pln_x", "--applications", unknown}, []string{"line 2, column 2", `unknown field "applicationId"`}},
		{"not an array", "", []string{"--plan", "pln_x", "--applications", object}, []string{"line 1, column 1", "expected a JSON array"}},
		{"bad entry", "", []string{"--plan", "pln_x", "--applications", badEntry}, []string{"line 3, column 3", "entry 0", `env "staging"`}},
		{"trailing data", "", []string{"--plan", "pln_x", "--applications", trailing}, []string{"invalid character '[' after top-level value"}},
		{"stdin syntax", "[\n{\"applicationShortId\" \"app_x\"}]", []string{"--plan", "pln_x", "--applications", "-"}, []string{"(stdin): line 2, column 23"}},
		{"empty", "", []string{"--plan", "pln_x", "--parameters", empty}, []string{"--parameters", "empty input"}},
		{"unknown member", "", []string{"--plan", "pln_x", "--parameters", params}, []string{"line 3, column 3", `unknown member "config"`, "configs and configsByEnvironment"}},
		{"member type", "", []string{"--plan", "pln_x", "--parameters", paramsType}, []string{"configs must be an object"}},
		{"env uuid", "", []string{"--plan", "pln_x", "--parameters", paramsEnv}, []string{`key "env_sandbox-staging" is not an environment UUID`}},
		{"truncated stdin", `{"configs": {`, []string{"--plan", "pln_x", "--parameters", "-"}, []string{"(stdin): line 1, column 14", "unexpected end of JSON input"}},
		{"wait flag without wait", "", []string{"--plan", "pln_x", "--fail-on-skipped"}, []string{"--fail-on-skipped applies to --wait"}},
		{"bad project", "", []string{"--plan", "pln_x", "--project", "demo"}, []string{"invalid project", "proj_<id>"}},
		{"bad project in a dry run", "", []string{"--plan", "pln_x", "--project", "demo", "--dry-run"}, []string{"invalid project"}},
		{"bad output", "", []string{"--plan", "pln_x", "-o", "xml"}, []string{"--output"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.RunWith(cmdtest.RunOptions{Stdin: tt.stdin}, append([]string{"run", "start"}, tt.args...)...).Expect(t, 2)
			cmdtest.Contains(t, "stderr", r.Stderr, tt.want...)
			if r.Stdout != "" {
				t.Errorf("stdout %q", r.Stdout)
			}
		})
	}
	if n := e.Requests(postRun); n != 0 {
		t.Fatalf("invalid input sent %d POSTs", n)
	}
	// Usage errors point to the help.
	r := e.Run("run", "start", "--plan", "nope").Expect(t, 2)
	if !strings.Contains(r.Stderr, "Run 'testctl run start --help' for usage.") {
		t.Errorf("stderr %q", r.Stderr)
	}
}
