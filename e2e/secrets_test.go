package e2e_test

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/cmd/factory"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/sandbox"
)

// auditKey is a key testctl is given and must never show.
const auditKey = "k-AUDIT-7f3e9c"

// leafCommands lists every runnable command of the real command tree, so
// that a command added later cannot be left out of an audit.
func leafCommands(t *testing.T) []string {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	f, cleanup := factory.New("test", factory.Options{IOStreams: ios})
	defer cleanup()
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && !c.HasSubCommands() && !c.Hidden && c.HasParent() && c.Name() != "help" {
			out = append(out, strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" "))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root.NewCmdRoot(f))
	sort.Strings(out)
	if len(out) < 15 {
		t.Fatalf("only %d commands found in the tree: %v", len(out), out)
	}
	return out
}

// auditRun is one invocation of a command in the audit.
type auditRun struct {
	args  []string
	stdin string
	ok    int // exit code when the key is accepted; -1: not checked
}

// auditInvocations covers every command with the flags that read and
// print the most. RID is a run and RID-1 one of its test cases.
func auditInvocations(rid, dir string) map[string][]auditRun {
	junit := filepath.Join(dir, "reports", "junit.xml")
	return map[string][]auditRun{
		"api": {{args: []string{"api", "/v1/applications"}}, {args: []string{"api", "/v1/outbound-ips", "-i"}},
			{args: []string{"api", "/v1/run/" + rid, "-f", "failedOnly=true"}}},
		"auth login":   {{args: []string{"auth", "login", "--no-verify"}, stdin: auditKey + "\n"}},
		"auth logout":  {{args: []string{"auth", "logout"}}},
		"auth status":  {{args: []string{"auth", "status"}}, {args: []string{"auth", "status", "-o", "json"}}},
		"completion":   {{args: []string{"completion", "bash"}}},
		"config get":   {{args: []string{"config", "get", "api_key"}}, {args: []string{"config", "get", "base_url"}}},
		"config list":  {{args: []string{"config", "list"}}, {args: []string{"config", "list", "-o", "yaml"}}},
		"config path":  {{args: []string{"config", "path"}}},
		"config set":   {{args: []string{"config", "set", "project", sandbox.ProjectShortID}}},
		"config unset": {{args: []string{"config", "unset", "project"}}},
		"logs": {{args: []string{"logs", rid + "-1", "--kind", "console", "--warnings", "--info"}},
			{args: []string{"logs", rid + "-1", "--kind", "network", "-o", "json"}},
			{args: []string{"logs", rid + "-1", "--kind", "api-calls", "--full"}}},
		"run get":  {{args: []string{"run", "get", rid, "--issues"}}, {args: []string{"run", "get", rid, "-o", "json", "--junit", junit}}},
		"run list": {{args: []string{"run", "list", "--limit", "5"}}},
		"run start": {{args: []string{"run", "start", "--plan", "pln-passing_sandbox", "--wait", "--junit", junit}},
			{args: []string{"run", "start", "--plan", "pln-failing_sandbox", "--dry-run"}}},
		"run rerun": {{args: []string{"run", "rerun", rid, "--failed-only", "--wait", "--junit", junit}, ok: 1},
			{args: []string{"run", "rerun", rid, "--failed-only", "--dry-run"}}},
		"run wait":   {{args: []string{"run", "wait", rid, "--junit", junit}, ok: 1}},
		"run report": {{args: []string{"run", "report", rid, "--junit", junit, "--html", junit + ".html"}, ok: 1}},
		"sandbox":    {{args: []string{"sandbox", "--addr", "127.0.0.1:0"}, ok: -1}},
		"testcase create": {{args: []string{"testcase", "create", "--name", "Audit", "--goal", "Open the page", "--app", "app_sandbox-web"}},
			{args: []string{"testcase", "create", "--name", "Audit", "--goal", "Open the page", "--app", "app_sandbox-web", "--dry-run"}}},
		"testcase list": {{args: []string{"testcase", "list", "--all"}}},
		"tunnel status": {{args: []string{"tunnel", "status", "runner-healthy"}},
			{args: []string{"tunnel", "status", "runner-warming", "--wait-until", "healthy"}}},
		"version": {{args: []string{"version"}}},
		// `mcp` serves until its client leaves (e2e/mcp_secrets_test.go
		// audits its tools); its config snippet names the service only.
		"mcp config": {{args: []string{"mcp", "config", "--client", "claude"}}, {args: []string{"mcp", "config", "--client", "vscode"}}},
		// Instructions made from the command tree: nothing of the service.
		"agent setup": {{args: []string{"agent", "setup", "--agent", "all", "--print"}}},
	}
}

// keyProxy forwards to the sandbox and swaps the audit key for the
// sandbox's own, so that every command can succeed with a key the
// sandbox does not know. With echo set it instead quotes the key it
// received back, as a careless service or proxy might: in a 401's message,
// or in a 200 HTML page.
func keyProxy(t *testing.T, target, echo string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		switch echo {
		case "401":
			writeJSON(w, http.StatusUnauthorized, `{"message":"invalid API key `+got+`"}`)
			return
		case "html":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("X-Seen-Authorization", "Bearer "+got)
			_, _ = w.Write([]byte("<html><body>Sign-in required. Your request carried Bearer " + got + "</body></html>"))
			return
		}
		if got == auditKey {
			r.Header.Set("Authorization", "Bearer "+sandbox.ProjectKey)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestSecretsNeverLeak runs every command of the tree with --debug, with
// the key from the environment, a flag and the config file, against a
// service that accepts it, one that rejects it and one that echoes it, and
// proves the key shows up nowhere but in the config file `auth login`
// wrote: not on stdout, not on stderr, not in any other file.
func TestSecretsNeverLeak(t *testing.T) {
	e := cmdtest.New(t)
	rid := auditRunID(t, e)
	commands := leafCommands(t)
	invocations := auditInvocations(rid, e.Dir)
	for _, c := range commands {
		if _, ok := invocations[c]; !ok {
			t.Errorf("command %q is not covered by the secrets audit: add it to auditInvocations", c)
		}
	}
	if err := os.MkdirAll(filepath.Join(e.Dir, "reports"), 0o755); err != nil {
		t.Fatal(err)
	}
	accepting := keyProxy(t, e.Sandbox.BaseURL, "")
	configFile := e.Getenv("TESTCTL_CONFIG")

	debugLogged := false
	check := func(t *testing.T, what string, r cmdtest.Result, secret string) {
		t.Helper()
		checkNoPanic(t, r)
		if strings.Contains(r.Stdout, secret) || strings.Contains(r.Stderr, secret) {
			t.Errorf("%s printed the key:\nstdout:\n%.3000s\nstderr:\n%.3000s", what, r.Stdout, r.Stderr)
		}
		if strings.Contains(r.Stderr, "Authorization: Bearer [REDACTED]") {
			debugLogged = true
		}
	}
	// auth logout and login change the key's source: they go last.
	ordered := slices.Clone(commands)
	sort.SliceStable(ordered, func(i, j int) bool {
		return !strings.HasPrefix(ordered[i], "auth log") && strings.HasPrefix(ordered[j], "auth log")
	})
	runAll := func(t *testing.T, mode string, extra []string, accepted bool) {
		for _, c := range ordered {
			for _, inv := range invocations[c] {
				args := append(append([]string{"--debug"}, extra...), inv.args...)
				ro := cmdtest.RunOptions{Stdin: inv.stdin}
				if c == "sandbox" {
					ctx, cancel := context.WithCancel(context.Background())
					cancel() // serve, print the banner, stop at once
					ro.Ctx = ctx
				}
				r := e.RunWith(ro, args...)
				check(t, mode+": "+strings.Join(inv.args, " "), r, auditKey)
				if accepted && inv.ok >= 0 && r.Code != inv.ok && c != "auth status" {
					t.Errorf("%s: %v: exit %d, want %d\nstderr:\n%.2000s", mode, inv.args, r.Code, inv.ok, r.Stderr)
				}
			}
		}
	}

	t.Run("key from the environment, accepted", func(t *testing.T) {
		e.Setenv("TESTCTL_BASE_URL", accepting)
		e.Setenv("TESTCTL_API_KEY", auditKey)
		runAll(t, "env", nil, true)
	})
	t.Run("key from a flag, accepted", func(t *testing.T) {
		e.Setenv("TESTCTL_API_KEY", "")
		runAll(t, "flag", []string{"--api-key", auditKey}, true)
	})
	t.Run("key from the config file, accepted", func(t *testing.T) {
		e.Setenv("TESTCTL_API_KEY", "")
		for _, login := range []cmdtest.RunOptions{{Stdin: auditKey + "\n"}, {Stdin: auditKey + "\n", TTY: true}} {
			r := e.RunWith(login, "--debug", "auth", "login")
			check(t, "auth login", r, auditKey)
			r.Expect(t, 0)
			if login.TTY && !strings.Contains(r.Stderr, "Paste your API key") {
				t.Errorf("no hidden prompt on a terminal:\n%s", r.Stderr)
			}
			checkConfigModes(t, configFile)
		}
		// auth logout, run last, removes the key; log in again after it.
		runAll(t, "profile", nil, true)
		e.RunWith(cmdtest.RunOptions{Stdin: auditKey + "\n"}, "auth", "login").Expect(t, 0)
		checkConfigModes(t, configFile)
	})
	t.Run("key rejected", func(t *testing.T) {
		e.Setenv("TESTCTL_BASE_URL", e.Sandbox.BaseURL)
		e.Setenv("TESTCTL_API_KEY", auditKey)
		runAll(t, "rejected", nil, false)
		r := e.RunWith(cmdtest.RunOptions{Stdin: auditKey + "\n"}, "--debug", "auth", "login")
		check(t, "auth login rejected", r, auditKey)
		r.Expect(t, 4)
	})
	for _, echo := range []string{"401", "html"} {
		t.Run("key echoed by the service in "+echo, func(t *testing.T) {
			e.Setenv("TESTCTL_BASE_URL", keyProxy(t, e.Sandbox.BaseURL, echo))
			e.Setenv("TESTCTL_API_KEY", auditKey)
			runAll(t, "echoed in "+echo, nil, false)
		})
	}
	t.Run("sandbox key", func(t *testing.T) {
		e.Setenv("TESTCTL_BASE_URL", e.Sandbox.BaseURL)
		e.Setenv("TESTCTL_API_KEY", sandbox.ProjectKey)
		for _, c := range commands {
			if c == "sandbox" || c == "auth login" {
				continue // the sandbox's banner lists its public keys; login is covered above
			}
			for _, inv := range invocations[c] {
				r := e.RunWith(cmdtest.RunOptions{Stdin: inv.stdin}, append([]string{"--debug"}, inv.args...)...)
				check(t, "sandbox key: "+strings.Join(inv.args, " "), r, sandbox.ProjectKey)
			}
		}
	})
	if !debugLogged {
		t.Error("no command logged a redacted Authorization header: the audit did not exercise --debug")
	}

	// Logged in, no file holds the key: the keyring does. With
	// --insecure-storage the config file does, and no other file.
	e.RunWith(cmdtest.RunOptions{Stdin: auditKey + "\n"}, "auth", "login", "--no-verify").Expect(t, 0)
	if holders := filesHolding(t, e.Dir, auditKey); len(holders) != 0 {
		t.Errorf("files holding the key kept in the keyring: %v", holders)
	}
	e.RunWith(cmdtest.RunOptions{Stdin: auditKey + "\n"}, "auth", "login", "--no-verify", "--insecure-storage").Expect(t, 0)
	checkConfigModes(t, configFile)
	if holders := filesHolding(t, e.Dir, auditKey); !slices.Equal(holders, []string{configFile}) {
		t.Errorf("files holding the key: %v, want only the config file %s", holders, configFile)
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "reports", "junit.xml")); err != nil {
		t.Errorf("the audit wrote no JUnit report to search: %v", err)
	}
}

// filesHolding lists the files under dir that contain secret.
func filesHolding(t *testing.T, dir, secret string) []string {
	t.Helper()
	var holders []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), secret) {
			holders = append(holders, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return holders
}

// checkConfigModes asserts the config file is 0600 in a 0700 directory.
func checkConfigModes(t *testing.T, path string) {
	t.Helper()
	for p, want := range map[string]fs.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o, want %04o", p, got, want)
		}
	}
}

// TestConfigFileModesSurviveEveryWrite: every command that writes the
// config file leaves it 0600, and testctl's own directory 0700, even when a
// user created them looser; a loose file holding a key draws a warning. A
// directory the user named with --config-file keeps its mode: it may be a
// project's, or /tmp.
func TestConfigFileModesSurviveEveryWrite(t *testing.T) {
	e := cmdtest.New(t)
	e.Setenv("TESTCTL_CONFIG", "")
	e.Setenv("XDG_CONFIG_HOME", filepath.Join(e.Dir, "xdg"))
	e.Setenv("TESTCTL_API_KEY", "")
	path := filepath.Join(e.Dir, "xdg", "testctl", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("profiles:\n  default:\n    api_key: "+auditKey+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.Run("config", "list").Expect(t, 0)
	cmdtest.Contains(t, "warning", r.Stderr, "readable by others", "chmod 600")
	run := func(args ...string) {
		t.Helper()
		r := e.RunWith(cmdtest.RunOptions{Stdin: auditKey + "\n"}, args...)
		checkNoPanic(t, r)
		if r.Code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.Code, r.Stderr)
		}
		if strings.Contains(r.Output(), auditKey) {
			t.Errorf("%v printed the key", args)
		}
	}
	for _, args := range [][]string{
		{"config", "set", "project", sandbox.ProjectShortID},
		{"config", "set", "output", "json", "--profile", "ci"},
		{"config", "unset", "output", "--profile", "ci"},
		{"config", "set", "current_profile", "default"},
		{"auth", "login", "--no-verify", "--profile", "ci"},
		{"auth", "logout", "--profile", "ci"},
	} {
		run(args...)
		checkConfigModes(t, path)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), auditKey) {
		t.Fatalf("the default profile's key was lost: %v\n%s", err, data)
	}

	project := filepath.Join(e.Dir, "project")
	if err := os.Mkdir(project, 0o755); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(project, "testctl.yaml")
	run("--config-file", named, "auth", "login", "--no-verify")
	for p, want := range map[string]fs.FileMode{named: 0o600, project: 0o755} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o, want %04o", p, got, want)
		}
	}
}

// auditRunID starts a run in the env's sandbox and lets it finish, so
// that run get, wait and logs have something to read.
func auditRunID(t *testing.T, e *cmdtest.Env) string {
	t.Helper()
	c := &api.Client{BaseURL: e.Sandbox.BaseURL, APIKey: sandbox.ProjectKey, Clock: e.Clock}
	resp, err := c.StartRun(context.Background(), api.StartRunRequest{TestPlanShortID: "pln-failing_sandbox"})
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(time.Minute)
	return resp.Run.ShortID
}
