package root_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/testctl/testctl/internal/cmdtest"
)

func TestHelpListsTheContractsCommands(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("--help").Expect(t, 0)
	for _, c := range []string{"auth", "completion", "config", "version"} {
		if !strings.Contains(r.Stdout, "\n  "+c+" ") {
			t.Errorf("--help lacks %q:\n%s", c, r.Stdout)
		}
	}
	cmdtest.Contains(t, "--help", r.Stdout, "--sandbox", "--api-key", "--base-url", "--project", "--output", "--jq", "--no-color", "--debug", "--http-timeout", "--profile", "--config-file", "--legacy-base-url", "--allow-insecure-http")
}

func TestUsageErrorsExit2(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("frobnicate").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, `unknown command "frobnicate"`, "--help")
	r = e.Run("config", "path", "--nope").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "unknown flag: --nope")
	r = e.Run("config", "list", "-o", "xml").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--output")
	r = e.Run("config", "list", "--jq", ".[").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "--jq")
}

// Cobra prints a group's help and exits 0 for a verb it does not have: a
// typo in a CI step (`run wiat`) would pass it. Every group says no, exit 2.
func TestUnknownVerbOfAGroupExits2(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("run", "wiat", "r1a2b3").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, `unknown command "wiat" for "testctl run"`, "Did you mean this?", "\twait\n")
	if r.Stdout != "" {
		t.Errorf("stdout %q, want nothing", r.Stdout)
	}
	for _, group := range []string{"auth", "config", "testcase", "tunnel"} {
		r = e.Run(group, "frobnicate").Expect(t, 2)
		cmdtest.Contains(t, group+" stderr", r.Stderr, `unknown command "frobnicate" for "testctl `+group+`"; its commands: `)
	}
	r = e.Run("tunnel").Expect(t, 0)
	cmdtest.Contains(t, "tunnel alone", r.Stdout, "Available Commands:", "status")
}

// gojq gives error() jq's exit code 5, which testctl's contract reserves
// for "not found": a --jq expression failing on the data is a usage error.
func TestJQRuntimeErrorsExit2(t *testing.T) {
	e := cmdtest.New(t)
	for _, expr := range []string{`error("boom")`, `.profile | halt_error(5)`, `.profile + 1`} {
		r := e.Run("auth", "status", "--jq", expr).Expect(t, 2)
		cmdtest.Contains(t, expr, r.Stderr, "--jq: ")
	}
}

func TestNoBaseURLNamesTheThreeWays(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_BASE_URL", "")
	r := e.RunWith(cmdtest.RunOptions{Stdin: "some-key-value\n"}, "auth", "login").Expect(t, 2)
	cmdtest.Contains(t, "stderr", r.Stderr, "no base URL", "--base-url", "TESTCTL_BASE_URL", "testctl config set base_url")
	// The three ways are a small table: their notes start in one column,
	// counted in characters ("…" is one, not three bytes).
	column := -1
	for _, line := range strings.Split(r.Stderr, "\n") {
		if !strings.HasPrefix(line, "  ") {
			continue
		}
		before, _, ok := strings.Cut(line, "(")
		at := utf8.RuneCountInString(before)
		if column < 0 {
			column = at
		}
		if !ok || at != column {
			t.Errorf("note at column %d, not %d: %q", at, column, line)
		}
	}
	if column < 0 {
		t.Errorf("no indented lines:\n%s", r.Stderr)
	}
}

func TestVersion(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("version").Expect(t, 0)
	if !strings.HasPrefix(r.Stdout, "testctl ") || r.Stderr != "" {
		t.Errorf("version: %q %q", r.Stdout, r.Stderr)
	}
	r = e.Run("--version").Expect(t, 0)
	cmdtest.Contains(t, "--version", r.Stdout, "testctl ")
	r = e.Run("version", "-o", "json").Expect(t, 0)
	cmdtest.Contains(t, "version json", r.Stdout, `"version":`)
	// A test binary has no VCS information: no commit, rather than an
	// empty one.
	if strings.Contains(r.Stdout, `""`) {
		t.Errorf("version json invents empty fields: %s", r.Stdout)
	}
}

func TestCompletionScripts(t *testing.T) {
	e := cmdtest.New(t)
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		r := e.Run("completion", sh).Expect(t, 0)
		if len(r.Stdout) < 500 || !strings.Contains(r.Stdout, "testctl") {
			t.Errorf("%s completion looks empty: %d bytes", sh, len(r.Stdout))
		}
	}
	e.Run("completion", "tcsh").Expect(t, 2)
}

func TestCompletionOfGlobalEnumsAndProfiles(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("__complete", "config", "list", "-o", "").Expect(t, 0)
	cmdtest.Contains(t, "-o completion", r.Stdout, "table\n", "json\n", "yaml\n")
	e.Run("config", "set", "project", "proj_a", "--profile", "staging").Expect(t, 0)
	e.Run("config", "set", "project", "proj_b", "--profile", "prod").Expect(t, 0)
	r = e.Run("__complete", "config", "list", "--profile", "").Expect(t, 0)
	cmdtest.Contains(t, "--profile completion", r.Stdout, "prod\n", "staging\n")
}

func TestEnumAndRunIDCompletionAcrossCommands(t *testing.T) {
	e := cmdtest.New(t)
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"logs", "r1-1", "--kind", ""}, []string{"network", "console", "api-calls"}},
		{[]string{"logs", "r1-1", "--kind", "network", "--status", ""}, []string{"all", "errors", "success"}},
		{[]string{"testcase", "list", "--enabled", ""}, []string{"true", "false"}},
		{[]string{"tunnel", "status", "runner-1", "--wait-until", ""}, []string{"healthy", "degraded"}},
		{[]string{"api", "/v1/run", "-X", ""}, []string{"GET", "POST"}},
		{[]string{"run", "wait", ""}, []string{"h"}}, // history run ids start with h
	}
	for _, tc := range cases {
		r := e.Run(append([]string{"__complete"}, tc.args...)...).Expect(t, 0)
		for _, w := range tc.want {
			if !strings.Contains(r.Stdout, "\n"+w) && !strings.HasPrefix(r.Stdout, w) {
				t.Errorf("%q: completions lack %q:\n%s", tc.args, w, r.Stdout)
			}
		}
	}
	// Without a key, run id completion offers nothing and says nothing.
	e.Setenv("TESTCTL_API_KEY", "")
	r := e.Run("__complete", "run", "wait", "").Expect(t, 0)
	if strings.TrimSpace(r.Stdout) != ":4" || strings.Contains(r.Stderr, "error") {
		t.Errorf("completion without a key: stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

// A flag value Go can't parse gets what such a value looks like, not Go's
// parser message; exit 2, nothing sent.
func TestBadFlagValuesSayWhatAValueLooksLike(t *testing.T) {
	e := cmdtest.New(t)
	before := e.Requests("GET /v1/run/{shortId}")
	for _, c := range []struct{ args, want []string }{
		{[]string{"run", "wait", "r0a1b2", "--timeout", "5"}, []string{`invalid --timeout "5": a duration with its unit, like 30s, 10m or 1h30m`}},
		{[]string{"run", "wait", "r0a1b2", "--interval=soon"}, []string{`invalid --interval "soon": a duration`}},
		{[]string{"run", "list", "--limit", "x"}, []string{`invalid --limit "x": a whole number`}},
	} {
		r := e.Run(c.args...).Expect(t, 2)
		cmdtest.Contains(t, "stderr", r.Stderr, c.want...)
		if strings.Contains(r.Stderr, "time:") || strings.Contains(r.Stderr, "strconv") {
			t.Errorf("Go's parser message:\n%s", r.Stderr)
		}
	}
	if n := e.Requests("GET /v1/run/{shortId}") - before; n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// `api --help` names what testctl has no command for: none of it may be a
// command that exists (it once sent users to the raw API for reruns and
// tunnels).
func TestAPIHelpListsNoExistingCommandAsMissing(t *testing.T) {
	e := cmdtest.New(t)
	help := e.Run("api", "--help").Expect(t, 0).Stdout
	start := strings.Index(help, "no command for (")
	end := strings.Index(help[start:], ")")
	if start < 0 || end < 0 {
		t.Fatalf("no list of what has no command:\n%s", help)
	}
	listed := help[start+len("no command for (") : start+end]
	e.Run("run", "rerun", "--help").Expect(t, 0)
	e.Run("tunnel", "status", "--help").Expect(t, 0)
	for _, word := range []string{"rerun", "tunnel", "run", "test case", "logs"} {
		if strings.Contains(listed, word) {
			t.Errorf("api --help says testctl has no command for %q, which has one: %q", word, listed)
		}
	}
}

// On a terminal, flag descriptions wrap to its width under their own
// column, rather than running past the edge; off a terminal lines stay
// whole, as cobra prints them.
func TestHelpWrapsFlagsToTheTerminal(t *testing.T) {
	e := cmdtest.New(t)
	for _, width := range []int{60, 100} {
		r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: width}, "run", "wait", "--help").Expect(t, 0)
		flags := r.Stdout[strings.Index(r.Stdout, "\nFlags:\n"):]
		for _, line := range strings.Split(flags, "\n") {
			// A word longer than the column (a path) can't be broken.
			if ansi.StringWidth(line) > width && len(strings.Fields(line)) > 1 {
				t.Errorf("at %d columns, a flag line of %d: %q", width, ansi.StringWidth(line), line)
			}
		}
	}
	r := e.Run("run", "wait", "--help").Expect(t, 0)
	if !strings.Contains(r.Stdout, "--heartbeat duration") {
		t.Fatalf("no --heartbeat:\n%s", r.Stdout)
	}
}

// run wait --help fits a screen or two, its prose in lines a terminal keeps
// whole; the long story is a help topic of its own.
func TestRunWaitHelpIsShortAndTheStoryIsATopic(t *testing.T) {
	e := cmdtest.New(t)
	r := e.RunWith(cmdtest.RunOptions{TTY: true, Width: 100}, "run", "wait", "--help").Expect(t, 0)
	if n := strings.Count(r.Stdout, "\n"); n > 100 { // 150 before, flags wrapped
		t.Errorf("run wait --help is %d lines", n)
	}
	prose, _, _ := strings.Cut(r.Stdout, "\nUsage:")
	for _, line := range strings.Split(prose, "\n") {
		if ansi.StringWidth(line) > 80 {
			t.Errorf("a help line of %d columns: %q", ansi.StringWidth(line), line)
		}
	}
	cmdtest.Contains(t, "run wait --help", r.Stdout, "testctl help waiting")
	topic := e.Run("help", "waiting").Expect(t, 0).Stdout
	cmdtest.Contains(t, "help waiting", topic, "--retry-failed N", "<flakyFailure>", "--junit FILE", "$GITHUB_STEP_SUMMARY", "--comment keeps one pull request")
}

// completion --help says what each shell needs for the script to work:
// bash's completion loads only with the bash-completion package.
func TestCompletionHelpNamesWhatTheShellNeeds(t *testing.T) {
	e := cmdtest.New(t)
	r := e.Run("completion", "--help").Expect(t, 0)
	cmdtest.Contains(t, "completion --help", r.Stdout, "bash needs the bash-completion package", "compinit")
}
