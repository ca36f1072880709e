package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
)

// TestBadInputIsRejectedBeforeAnyRequest feeds every validated flag and
// argument of the contract a bad value. Each must exit 2 with a message
// naming what is wrong, print nothing on stdout, and send nothing: a typo
// in a CI step must never half-start anything.
func TestBadInputIsRejectedBeforeAnyRequest(t *testing.T) {
	e := cmdtest.New(t)
	name81 := strings.Repeat("n", 81)
	malformed := e.WriteFile("apps.json", "[\n  {\"applicationShortId\": \"app_x\"},\n  {\"applicationShortId\": \"app_y\",}\n]")
	notArray := e.WriteFile("object.json", `{"applicationShortId": "app_x"}`)
	badParams := e.WriteFile("params.json", "{\n  \"configs\": {},\n  \"config\": {}\n}")
	paramsEnv := e.WriteFile("penv.json", `{"configsByEnvironment": {"staging": {}}}`)
	truncated := e.WriteFile("truncated.json", `{"failedOnly": tr`)
	emptyFile := e.WriteFile("empty.json", " \n")
	// A body just over api --input's 16 MiB whose first 16 MiB are a
	// valid document that starts a run: cut, it would be sent.
	overLimit := `{"testPlanShortId": "pln-passing_sandbox"}` + strings.Repeat(" ", 16<<20-42+1)
	overLimitFile := e.WriteFile("over-limit.json", overLimit)
	profileFile := e.WriteFile("profile.yaml", "profiles:\n  default:\n    project: demo\n")
	aDir := filepath.Join(e.Dir, "a-directory")
	if err := os.Mkdir(aDir, 0o755); err != nil {
		t.Fatal(err)
	}
	noDir := filepath.Join(e.Dir, "missing", "report.xml")
	const uuid = "5a4db001-0000-4000-8000-000000000001"
	create := func(args ...string) []string {
		return append([]string{"testcase", "create", "--name", "Smoke", "--goal", "Open the page", "--app", "app_sandbox-web"}, args...)
	}
	start := func(args ...string) []string { return append([]string{"run", "start", "--plan", "pln_x"}, args...) }

	tests := []struct {
		name  string
		args  []string
		want  []string // each must appear on stderr
		env   map[string]string
		stdin string
	}{
		// Global settings.
		{"unknown output", []string{"run", "list", "-o", "xml"}, []string{"--output", "xml"}, nil, ""},
		{"bad jq", []string{"run", "list", "--jq", ".["}, []string{"--jq"}, nil, ""},
		{"bad http timeout", []string{"run", "list", "--http-timeout", "soon"}, []string{"--http-timeout", "soon"}, nil, ""},
		{"negative http timeout", []string{"run", "list", "--http-timeout", "-1s"}, []string{"--http-timeout"}, nil, ""},
		{"bad project", []string{"run", "list", "--project", "demo"}, []string{"--project", "proj_<id>"}, nil, ""},
		{"bad project from env", []string{"run", "list"}, []string{"TESTCTL_PROJECT", "proj_<id>"}, map[string]string{"TESTCTL_PROJECT": "demo"}, ""},
		{"bad project in a profile", []string{"run", "list"}, []string{`project in profile "default" of ` + profileFile},
			map[string]string{"TESTCTL_CONFIG": profileFile}, ""},
		{"unknown output from env", []string{"run", "list"}, []string{"TESTCTL_OUTPUT", "xml"}, map[string]string{"TESTCTL_OUTPUT": "xml"}, ""},
		{"bad base url", []string{"run", "list", "--base-url", "ftp://example.com"}, []string{"--base-url", "ftp://example.com"}, nil, ""},
		{"base url with v1", []string{"run", "list", "--base-url", "https://api.example.com/v1"}, []string{"--base-url", "/v1"}, nil, ""},
		{"no base url", []string{"run", "list"}, []string{"no base URL", "--base-url", "TESTCTL_BASE_URL", "config set base_url"},
			map[string]string{"TESTCTL_BASE_URL": ""}, ""},
		{"key over plain http", []string{"run", "list", "--base-url", "http://api.example.com"}, []string{"plain http://", "--allow-insecure-http"}, nil, ""},
		{"bad legacy base url", []string{"run", "get", "r1", "--legacy", "--project-uuid", uuid, "--legacy-base-url", "nope"},
			[]string{"--legacy-base-url", "nope"}, nil, ""},
		{"unknown flag", []string{"run", "list", "--colour"}, []string{"unknown flag: --colour"}, nil, ""},
		{"unknown command", []string{"runs"}, []string{`unknown command "runs"`}, nil, ""},

		// run start.
		{"start without target", []string{"run", "start"}, []string{"--plan", "--test-case"}, nil, ""},
		{"plan without prefix", []string{"run", "start", "--plan", "checkout"}, []string{"--plan", `"checkout"`}, nil, ""},
		{"plan without id", []string{"run", "start", "--plan", "pln_"}, []string{"--plan", `"pln_"`}, nil, ""},
		{"plan slug without id", []string{"run", "start", "--plan", "pln-checkout"}, []string{"--plan", `"pln-checkout"`}, nil, ""},
		{"plan and test case", []string{"run", "start", "--plan", "pln_x", "--test-case", uuid}, []string{"--plan", "--test-case", "cannot be combined"}, nil, ""},
		{"blank test case", []string{"run", "start", "--test-case", " "}, []string{"--test-case"}, nil, ""},
		{"unknown trigger", start("--trigger", "CRON"), []string{"--trigger", "CRON", "API, CODEHOST"}, nil, ""},
		{"codehost trigger without metadata", start("--trigger", "CODEHOST", "--actor", "me"),
			[]string{"--trigger CODEHOST", "--branch", "--commit", "--commit-message", "--repository"}, nil, ""},
		{"app spec without app", start("--app", "env=env_x"), []string{"--app", "application id"}, nil, ""},
		{"app spec bad app id", start("--app", "web"), []string{"--app", `"web"`, "app_<id>"}, nil, ""},
		{"app spec bad env", start("--app", "app_x,env=staging"), []string{"--app", `env "staging"`}, nil, ""},
		{"app spec bad url", start("--app", "app_x,url=ftp://x"), []string{"--app", "url", "http(s)"}, nil, ""},
		{"app spec bad build", start("--app", "app_x,build=b1"), []string{"--app", `build "b1"`}, nil, ""},
		{"app spec bad device", start("--app", "app_x,device=pixel"), []string{"--app", `device "pixel"`}, nil, ""},
		{"app spec unknown key", start("--app", "app_x,color=red"), []string{"--app", `unknown key "color"`}, nil, ""},
		{"app spec empty value", start("--app", "app_x,name="), []string{"--app", "empty value"}, nil, ""},
		{"app spec twice", start("--app", "app_x", "--app", "app_x,env=env_y"), []string{"--app", "given twice"}, nil, ""},
		{"app and applications", start("--app", "app_x", "--applications", notArray), []string{"--app", "--applications", "cannot be combined"}, nil, ""},
		{"applications malformed", start("--applications", malformed), []string{"--applications " + malformed + ": line 3, column 34", "invalid character"}, nil, ""},
		{"applications not an array", start("--applications", notArray), []string{"--applications", "line 1, column 1", "JSON array"}, nil, ""},
		{"applications missing file", start("--applications", filepath.Join(e.Dir, "nope.json")), []string{"--applications", "no such file"}, nil, ""},
		{"applications malformed stdin", start("--applications", "-"), []string{"--applications (stdin): line 1, column 2"}, nil, "[}"},
		{"both from stdin", start("--applications", "-", "--parameters", "-"), []string{"--applications", "--parameters", "standard input"}, nil, "[]"},
		{"parameters unknown member", start("--parameters", badParams), []string{"--parameters", "line 3, column 3", `unknown member "config"`}, nil, ""},
		{"parameters bad environment", start("--parameters", paramsEnv), []string{"--parameters", `"staging" is not an environment UUID`}, nil, ""},
		{"parameters empty", start("--parameters", emptyFile), []string{"--parameters", "empty"}, nil, ""},
		{"notify and no-notify", start("--notify", "slack:#qa", "--no-notify"), []string{"--notify", "--no-notify", "cannot be combined"}, nil, ""},
		{"notify bad type", start("--notify", "sl ack"), []string{"--notify", `"sl ack"`}, nil, ""},
		{"notify empty channel", start("--notify", "slack:"), []string{"--notify", "empty channel"}, nil, ""},
		{"notify none with channel", start("--notify", "none:x"), []string{"--notify", "none takes no channel"}, nil, ""},
		{"dry run and wait", start("--dry-run", "--wait"), []string{"--dry-run", "--wait"}, nil, ""},
		{"dry run and quiet", start("--dry-run", "-q"), []string{"--dry-run", "-q"}, nil, ""},
		{"wait flag without wait", start("--timeout", "5m"), []string{"--timeout applies to --wait"}, nil, ""},
		{"zero interval", start("--wait", "--interval", "0s"), []string{"--interval", "positive"}, nil, ""},
		{"negative timeout", start("--wait", "--timeout", "-1m"), []string{"--timeout", "positive"}, nil, ""},
		{"unparsable interval", start("--wait", "--interval", "often"), []string{"--interval", "often"}, nil, ""},
		{"junit in a missing directory", start("--wait", "--junit", noDir), []string{"--junit", "does not exist"}, nil, ""},

		// run get.
		{"get id with slash", []string{"run", "get", "r1/../x"}, []string{`"r1/../x"`, "run short id"}, nil, ""},
		{"get empty id", []string{"run", "get", ""}, []string{`""`, "run short id"}, nil, ""},
		{"get without id", []string{"run", "get"}, []string{"run get needs a run short id, e.g. testctl run get r4m0gl"}, nil, ""},
		{"get two ids", []string{"run", "get", "r1", "r2"}, []string{"run get takes a run short id", `"r1" "r2"`}, nil, ""},
		{"get unknown test-cases", []string{"run", "get", "r1", "--test-cases", "some"}, []string{"--test-cases", `"some"`, "all, failed"}, nil, ""},
		{"legacy without project uuid", []string{"run", "get", "r1", "--legacy"}, []string{"--legacy", "--project-uuid"}, nil, ""},
		{"project uuid without legacy", []string{"run", "get", "r1", "--project-uuid", uuid}, []string{"--project-uuid", "--legacy"}, nil, ""},
		{"legacy bad uuid", []string{"run", "get", "r1", "--legacy", "--project-uuid", "5a4db000-0000"}, []string{"--project-uuid", "not a UUID"}, nil, ""},
		{"legacy with issues", []string{"run", "get", "r1", "--legacy", "--project-uuid", uuid, "--issues"}, []string{"--issues", "--legacy"}, nil, ""},
		{"get junit is a directory", []string{"run", "get", "r1", "--junit", aDir}, []string{"--junit", "is a directory"}, nil, ""},

		// run rerun.
		{"rerun without id", []string{"run", "rerun"}, []string{"run rerun needs the short id of the run to rerun, e.g. testctl run rerun r4m0gl --failed-only"}, nil, ""},

		// run list.
		{"list unknown status", []string{"run", "list", "--status", "DONE"}, []string{"--status", `"DONE"`, "COMPLETED"}, nil, ""},
		{"list unknown result", []string{"run", "list", "--result", "MAYBE"}, []string{"--result", `"MAYBE"`, "PASSED"}, nil, ""},
		{"list unknown trigger", []string{"run", "list", "--trigger", "CRON"}, []string{"--trigger", `"CRON"`}, nil, ""},
		{"list bad plan", []string{"run", "list", "--plan", "checkout"}, []string{"--plan", `"checkout"`}, nil, ""},
		{"list zero limit", []string{"run", "list", "--limit", "0"}, []string{"--limit", "between 1 and 100"}, nil, ""},
		{"list huge limit", []string{"run", "list", "--limit", "101"}, []string{"--limit", "between 1 and 100"}, nil, ""},
		{"list negative offset", []string{"run", "list", "--offset", "-1"}, []string{"--offset", "negative"}, nil, ""},
		{"list non-numeric limit", []string{"run", "list", "--limit", "ten"}, []string{"--limit", "ten"}, nil, ""},

		// run wait.
		{"wait empty id", []string{"run", "wait", ""}, []string{"empty run short id"}, nil, ""},
		{"wait id twice", []string{"run", "wait", "r1", "r2", "r1"}, []string{"run r1 is given twice"}, nil, ""},
		{"report id twice", []string{"run", "report", "r1", "r1"}, []string{"run r1 is given twice"}, nil, ""},
		{"wait id with space", []string{"run", "wait", "r1 r2"}, []string{`"r1 r2"`}, nil, ""},
		{"wait without id", []string{"run", "wait"}, []string{"run wait needs at least one run short id, e.g. testctl run wait r4m0gl"}, nil, ""},
		{"wait zero interval", []string{"run", "wait", "r1", "--interval", "0s"}, []string{"--interval", "positive"}, nil, ""},
		{"wait zero timeout", []string{"run", "wait", "r1", "--timeout", "0s"}, []string{"--timeout", "positive"}, nil, ""},
		{"wait unparsable timeout", []string{"run", "wait", "r1", "--timeout", "1 hour"}, []string{"--timeout", "1 hour"}, nil, ""},
		{"wait junit is a directory", []string{"run", "wait", "r1", "--junit", aDir}, []string{"--junit", "is a directory"}, nil, ""},

		// testcase list.
		{"testcase list bad app", []string{"testcase", "list", "--app", "web"}, []string{"--app", `"web"`, "app_<id>"}, nil, ""},
		{"testcase list empty label", []string{"testcase", "list", "--label", "smoke,"}, []string{"--label", "empty"}, nil, ""},
		{"testcase list bad enabled", []string{"testcase", "list", "--enabled", "maybe"}, []string{"--enabled", `"maybe"`}, nil, ""},
		{"testcase list zero limit", []string{"testcase", "list", "--limit", "0"}, []string{"--limit", "between 1 and 100"}, nil, ""},
		{"testcase list huge limit", []string{"testcase", "list", "-L", "101"}, []string{"--limit", "between 1 and 100"}, nil, ""},
		{"testcase list negative offset", []string{"testcase", "list", "--offset", "-5"}, []string{"--offset", "negative"}, nil, ""},

		// testcase create.
		{"create empty name", []string{"testcase", "create", "--name", "", "--goal", "g", "--app", "app_x"}, []string{"--name", "1 to 80"}, nil, ""},
		{"create 81-character name", []string{"testcase", "create", "--name", name81, "--goal", "g", "--app", "app_x"}, []string{"--name", "81 characters", "1 to 80"}, nil, ""},
		{"create name with escape", []string{"testcase", "create", "--name", "a\x1b[2Jb", "--goal", "g", "--app", "app_x"}, []string{"--name", "control characters"}, nil, ""},
		{"create without goal", []string{"testcase", "create", "--name", "n", "--app", "app_x"}, []string{"--goal", "required"}, nil, ""},
		{"create without app", []string{"testcase", "create", "--name", "n", "--goal", "g"}, []string{"--app", "app_<id>"}, nil, ""},
		{"create bad app", []string{"testcase", "create", "--name", "n", "--goal", "g", "--app", "application"}, []string{"--app", `"application"`}, nil, ""},
		{"create bad config", create("--config", "admin"), []string{"--config", `"admin"`, "cfg_<id>"}, nil, ""},
		{"create bad scenario", create("--scenario", "checkout"), []string{"--scenario", `"checkout"`, "scenario_<id>"}, nil, ""},
		{"create bad resume-from", create("--resume-from", "5a4db001"), []string{"--resume-from", "not a UUID"}, nil, ""},
		{"create bad wait-for", create("--wait-for", uuid+",not-a-uuid"), []string{"--wait-for", `"not-a-uuid"`, "not a UUID"}, nil, ""},
		{"create resume-from and wait-for the same", create("--resume-from", uuid, "--wait-for", strings.ToUpper(uuid)),
			[]string{"--resume-from", "--wait-for"}, nil, ""},

		// logs.
		{"logs without id", []string{"logs", "--kind", "network"}, []string{"logs needs a run test case short id", "e.g. testctl logs r4m0gl-1 --kind network"}, nil, ""},
		{"logs without kind", []string{"logs", "r1-0"}, []string{"--kind", "required"}, nil, ""},
		{"logs unknown kind", []string{"logs", "r1-0", "--kind", "screenshots"}, []string{"--kind", `"screenshots"`}, nil, ""},
		{"logs id with slash", []string{"logs", "r1/0", "--kind", "console"}, []string{`"r1/0"`, "run test case short id"}, nil, ""},
		{"logs unknown status", []string{"logs", "r1-0", "--kind", "network", "--status", "broken"}, []string{"--status", `"broken"`}, nil, ""},
		{"logs bad regex", []string{"logs", "r1-0", "--kind", "network", "--url", "api/(v1"}, []string{"--url", "regular expression"}, nil, ""},
		{"logs empty regex", []string{"logs", "r1-0", "--kind", "network", "--url", " "}, []string{"--url", "empty"}, nil, ""},
		{"logs url with console", []string{"logs", "r1-0", "--kind", "console", "--url", "api"}, []string{"--url", "network or api-calls"}, nil, ""},
		{"logs warnings with network", []string{"logs", "r1-0", "--kind", "network", "--warnings"}, []string{"--warnings", "console"}, nil, ""},
		{"logs full with console", []string{"logs", "r1-0", "--kind", "console", "--full"}, []string{"--full", "api-calls"}, nil, ""},

		// tunnel status.
		{"tunnel without runner", []string{"tunnel", "status"}, []string{"tunnel status needs a runner id, e.g. testctl tunnel status runner-ci-42"}, nil, ""},
		{"tunnel empty runner", []string{"tunnel", "status", ""}, []string{`""`, "runner id"}, nil, ""},
		{"tunnel runner with slash", []string{"tunnel", "status", "runner/../x"}, []string{"runner id"}, nil, ""},
		{"tunnel unknown health", []string{"tunnel", "status", "runner-1", "--wait-until", "green"}, []string{"--wait-until", `"green"`}, nil, ""},
		{"tunnel timeout without wait", []string{"tunnel", "status", "runner-1", "--timeout", "1m"}, []string{"--timeout", "--wait-until"}, nil, ""},
		{"tunnel zero timeout", []string{"tunnel", "status", "runner-1", "--wait-until", "healthy", "--timeout", "0s"}, []string{"--timeout", "positive"}, nil, ""},
		{"tunnel negative interval", []string{"tunnel", "status", "runner-1", "--wait-until", "healthy", "--interval", "-5s"}, []string{"--interval", "positive"}, nil, ""},

		// api.
		{"api without path", []string{"api"}, []string{"api needs a path, e.g. testctl api /v1/applications"}, nil, ""},
		{"api absolute url elsewhere", []string{"api", "https://evil.example.com/v1/run"}, []string{"https://evil.example.com/v1/run", "configured base URL"}, nil, ""},
		{"api outside v1", []string{"api", "/v2/run"}, []string{`"/v2/run"`, "/v1/"}, nil, ""},
		{"api dot segments", []string{"api", "/v1/../admin"}, []string{`"/v1/../admin"`, ".."}, nil, ""},
		{"api fragment", []string{"api", "/v1/run#x"}, []string{"fragment"}, nil, ""},
		{"api unknown method", []string{"api", "/v1/run", "-X", "TRACE"}, []string{"-X", `"TRACE"`}, nil, ""},
		{"api field without value", []string{"api", "/v1/run", "-f", "limit"}, []string{"-f/--field", `"limit"`, "key=value"}, nil, ""},
		{"api raw field without key", []string{"api", "/v1/run", "--raw-field", "=x"}, []string{"--raw-field", "key=value"}, nil, ""},
		{"api malformed input", []string{"api", "/v1/run/r1", "--input", truncated}, []string{"--input", "not valid JSON"}, nil, ""},
		{"api empty input", []string{"api", "/v1/run/r1", "--input", "-"}, []string{"--input", "empty"}, nil, " "},
		{"api input with GET", []string{"api", "/v1/run/r1", "-X", "GET", "--input", "-"}, []string{"--input", "GET"}, nil, "{}"},
		{"api input over the limit", []string{"api", "/v1/run", "--input", overLimitFile}, []string{"--input " + overLimitFile + " is larger than 16 MiB"}, nil, ""},
		{"api input over the limit from stdin", []string{"api", "/v1/run", "--input", "-"}, []string{"--input - is larger than 16 MiB"}, nil, overLimit},

		// config and auth.
		{"config get without key", []string{"config", "get"}, []string{"config get needs a key, e.g. testctl config get base_url"}, nil, ""},
		{"config set without value", []string{"config", "set", "base_url"}, []string{"config set needs a key and a value, e.g. testctl config set base_url https://api.example.com"}, nil, ""},
		{"config unset without key", []string{"config", "unset"}, []string{"config unset needs a key, e.g. testctl config unset project"}, nil, ""},
		{"config set api key", []string{"config", "set", "api_key", "k-123"}, []string{"api_key", "auth login"}, nil, ""},
		{"config set unknown key", []string{"config", "set", "colour", "red"}, []string{`"colour"`}, nil, ""},
		{"config set bad output", []string{"config", "set", "output", "xml"}, []string{"output", "xml"}, nil, ""},
		{"config set bad base url", []string{"config", "set", "base_url", "api.example.com"}, []string{"base_url"}, nil, ""},
		{"config set bad project", []string{"config", "set", "project", "demo"}, []string{"project", "proj_<id>"}, nil, ""},
		{"config set bad timeout", []string{"config", "set", "http_timeout", "forever"}, []string{"http_timeout", "forever"}, nil, ""},
		{"config get unknown key", []string{"config", "get", "colour"}, []string{`"colour"`}, nil, ""},
		{"auth login with an argument", []string{"auth", "login", "k-123"}, []string{"no arguments", "standard input"}, nil, ""},
		{"auth login empty key", []string{"auth", "login"}, []string{"no API key given"}, nil, "\n"},
		{"auth login key with space", []string{"auth", "login"}, []string{"spaces or control characters"}, nil, "k 123\n"},

		// sandbox and completion.
		{"sandbox bad fault rate", []string{"sandbox", "--fault-rate", "1.5"}, []string{"--fault-rate"}, nil, ""},
		{"sandbox bad speed", []string{"sandbox", "--speed", "0"}, []string{"--speed"}, nil, ""},
		{"sandbox bad addr", []string{"sandbox", "--addr", "8787"}, []string{"--addr", `"8787"`}, nil, ""},
		{"sandbox negative latency", []string{"sandbox", "--latency", "-1s"}, []string{"--latency"}, nil, ""},
		{"completion unknown shell", []string{"completion", "tcsh"}, []string{"tcsh"}, nil, ""},
		{"completion without shell", []string{"completion"}, []string{"completion needs a shell: bash, zsh, fish or powershell, e.g. testctl completion bash"}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saved := map[string]string{}
			for k, v := range tt.env {
				saved[k] = e.Getenv(k)
				e.Setenv(k, v)
			}
			defer func() {
				for k, v := range saved {
					e.Setenv(k, v)
				}
			}()
			before := totalRequests(e)
			r := e.RunWith(cmdtest.RunOptions{Stdin: tt.stdin}, tt.args...)
			checkNoPanic(t, r)
			if r.Code != 2 {
				t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
			}
			cmdtest.Contains(t, "stderr", r.Stderr, tt.want...)
			if !strings.HasPrefix(r.Stderr, "error: ") {
				t.Errorf("stderr does not start with the error:\n%s", r.Stderr)
			}
			if r.Stdout != "" {
				t.Errorf("stdout %q", r.Stdout)
			}
			if n := totalRequests(e) - before; n != 0 {
				t.Errorf("%d requests reached the service", n)
			}
		})
	}
	if n := e.Sandbox.Server.Stats().RunsStarted; n != 0 {
		t.Fatalf("bad input started %d runs", n)
	}
}

// With no home, nor any other place for the config file, a command that
// writes it names the ways to give one, once.
func TestNoConfigLocationNamesTheFixOnce(t *testing.T) {
	e := cmdtest.New(t)
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "TESTCTL_CONFIG"} {
		e.Setenv(v, "")
	}
	r := e.Run("config", "set", "output", "json").Expect(t, 8)
	if n := strings.Count(r.Stderr, "set XDG_CONFIG_HOME, TESTCTL_CONFIG or --config-file"); n != 1 {
		t.Errorf("the fix is named %d times:\n%s", n, r.Stderr)
	}
}
