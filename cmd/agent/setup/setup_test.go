package setup_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/testctl/testctl/cmd/agent/setup"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/cmdutil"
	"github.com/testctl/testctl/pkg/iostreams"
)

var files = []string{".claude/skills/testctl/SKILL.md", "AGENTS.md", ".cursor/rules/testctl.mdc", ".github/copilot-instructions.md"}

// inDir runs the test's commands in a fresh directory outside any git
// repository.
func inDir(t *testing.T) (*cmdtest.Env, string) {
	t.Helper()
	e := cmdtest.New(t)
	dir := t.TempDir()
	t.Chdir(dir)
	return e, dir
}

func read(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSetupFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--agent", "claude"}, []string{"claude"}},
		{[]string{"--agent", "copilot", "--agent", "claude", "--agent", "claude"}, []string{"claude", "copilot"}},
		{[]string{"--agent", "cursor,codex"}, []string{"codex", "cursor"}},
		{[]string{"--agent", "all", "--check"}, []string{"claude", "codex", "cursor", "copilot"}},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *setup.Options
		cmd := setup.NewCmdSetup(&cmdutil.Factory{IOStreams: ios}, func(o *setup.Options) error { got = o; return nil })
		cmd.SetArgs(c.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if !slices.Equal(got.Agents, c.want) {
			t.Errorf("%v: agents %v, want %v", c.args, got.Agents, c.want)
		}
	}
}

func TestSetupRefusesBadFlags(t *testing.T) {
	e, dir := inDir(t)
	for _, args := range [][]string{
		{"--agent", "vim"},
		{},
		{"--agent", "claude", "--print", "--check"},
		{"--agent", "claude", "--remove", "--check"},
	} {
		r := e.Run(append([]string{"agent", "setup"}, args...)...)
		if r.Code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, r.Code, r.Stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written: %v", entries)
	}
}

func TestSetupWritesEachAgentsFile(t *testing.T) {
	e, dir := inDir(t)
	r := e.Run("agent", "setup", "--agent", "all")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "Not in a git repository: in the working directory "+dir)
	for _, name := range files {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v", name, fi.Mode())
		}
		text := read(t, dir, name)
		cmdtest.Contains(t, name, text, "<!-- testctl:begin -->", "<!-- testctl:end -->",
			"testctl run start --plan PLAN --wait", "testctl logs", "--failed-only", // the loop
			"- 7: `--timeout` passed", "- 143:", // the exit codes, from the table
			"`runTestCases`", "`shortId`", "`hasMore`", // the JSON documents
			"--sandbox", "pln-failing_sandbox", "testctl mcp",
			"`testctl run wait SHORTID... [flags]`: Wait for runs to finish") // from the command tree
	}
	var skill struct{ Name, Description string }
	frontMatter(t, read(t, dir, files[0]), &skill)
	if skill.Name != "testctl" || skill.Description == "" {
		t.Errorf("SKILL.md front matter: %+v", skill)
	}
	var rule map[string]any
	frontMatter(t, read(t, dir, files[2]), &rule)
	for _, k := range []string{"description", "globs", "alwaysApply"} {
		if _, ok := rule[k]; !ok {
			t.Errorf("testctl.mdc front matter lacks %s: %v", k, rule)
		}
	}
	if rule["alwaysApply"] != false {
		t.Errorf("alwaysApply: %v", rule["alwaysApply"])
	}
}

func frontMatter(t *testing.T, text string, v any) {
	t.Helper()
	rest, ok := strings.CutPrefix(text, "---\n")
	head, _, found := strings.Cut(rest, "\n---\n")
	if !ok || !found {
		t.Fatalf("no front matter:\n%s", text)
	}
	if err := yaml.Unmarshal([]byte(head), v); err != nil {
		t.Fatalf("front matter: %v\n%s", err, head)
	}
}

// The same testctl writes the same bytes: no version, no date, no map order.
func TestSetupIsDeterministic(t *testing.T) {
	e, dir := inDir(t)
	if r := e.Run("agent", "setup", "--agent", "all"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	first := map[string]string{}
	for _, name := range files {
		first[name] = read(t, dir, name)
	}
	e.Clock.Advance(1000 * 3600 * 1e9)
	r := e.Run("agent", "setup", "--agent", "all")
	if r.Code != 0 || strings.Contains(r.Stderr, "Wrote") {
		t.Errorf("a second setup wrote again: exit %d\n%s", r.Code, r.Stderr)
	}
	for _, name := range files {
		if read(t, dir, name) != first[name] {
			t.Errorf("%s changed on a second run", name)
		}
	}
	p1, p2 := e.Run("agent", "setup", "--agent", "all", "--print"), e.Run("agent", "setup", "--agent", "all", "--print")
	if p1.Stdout != p2.Stdout || p1.Code != 0 {
		t.Errorf("--print differs between two runs")
	}
}

func TestSetupKeepsTheUsersText(t *testing.T) {
	e, dir := inDir(t)
	mine := "# Our conventions\n\nRun `make lint` before committing.\n"
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(mine), 0o644)
	if r := e.Run("agent", "setup", "--agent", "codex"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	got := read(t, dir, "AGENTS.md")
	if !strings.HasPrefix(got, mine+"\n<!-- testctl:begin -->\n") || !strings.HasSuffix(got, "<!-- testctl:end -->\n") {
		t.Errorf("the section was not appended after the user's text:\n%s", got)
	}
	if r := e.Run("agent", "setup", "--agent", "codex", "--remove"); r.Code != 0 || read(t, dir, "AGENTS.md") != mine {
		t.Errorf("--remove did not give back the user's file: exit %d\n%q", r.Code, read(t, dir, "AGENTS.md"))
	}

	// A stale section between the user's text is replaced in place.
	before, after := "Intro\r\nwith CRLF  \n\n", "\n## After\n\ttabbed, no final newline"
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(before+"<!-- testctl:begin -->\nold text\n<!-- testctl:end -->"+after), 0o644)
	if r := e.Run("agent", "setup", "--agent", "codex", "--check"); r.Code != 1 {
		t.Errorf("--check of a stale section: exit %d", r.Code)
	}
	if r := e.Run("agent", "setup", "--agent", "codex"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	got = read(t, dir, "AGENTS.md")
	if !strings.HasPrefix(got, before+"<!-- testctl:begin -->\n# testctl") || !strings.HasSuffix(got, "<!-- testctl:end -->"+after) || strings.Contains(got, "old text") {
		t.Errorf("the user's text moved or changed:\n%q", got)
	}
	if r := e.Run("agent", "setup", "--agent", "codex", "--remove"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	if got := read(t, dir, "AGENTS.md"); got != before+after {
		t.Errorf("--remove left %q, want %q", got, before+after)
	}
}

func TestSetupCheck(t *testing.T) {
	e, dir := inDir(t)
	r := e.Run("agent", "setup", "--agent", "claude", "--agent", "codex", "--check")
	if r.Code != 1 {
		t.Errorf("--check with nothing written: exit %d", r.Code)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, ".claude/skills/testctl/SKILL.md (missing)", "AGENTS.md (missing)")
	if r := e.Run("agent", "setup", "--agent", "claude", "--agent", "codex"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	if r := e.Run("agent", "setup", "--agent", "claude", "--agent", "codex", "--check"); r.Code != 0 {
		t.Errorf("--check after setup: exit %d\n%s", r.Code, r.Stderr)
	}
	path := filepath.Join(dir, "AGENTS.md")
	os.WriteFile(path, []byte(strings.Replace(read(t, dir, "AGENTS.md"), "## The loop", "## A loop", 1)), 0o644)
	r = e.Run("agent", "setup", "--agent", "all", "--check")
	if r.Code != 1 {
		t.Errorf("--check of an edited section: exit %d", r.Code)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "AGENTS.md (differs from what setup writes)", ".cursor/rules/testctl.mdc (missing)")
	if strings.Contains(r.Stderr, "SKILL.md") {
		t.Errorf("a fresh file named stale:\n%s", r.Stderr)
	}
	os.WriteFile(path, []byte("mine\n"), 0o644)
	r = e.Run("agent", "setup", "--agent", "codex", "--check")
	cmdtest.Contains(t, "stderr", r.Stderr, "AGENTS.md (no testctl section)")
	if read(t, dir, "AGENTS.md") != "mine\n" {
		t.Error("--check wrote")
	}
}

func TestSetupRemove(t *testing.T) {
	e, dir := inDir(t)
	if r := e.Run("agent", "setup", "--agent", "all"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	mdc := filepath.Join(dir, ".cursor/rules/testctl.mdc")
	os.WriteFile(mdc, []byte(read(t, dir, ".cursor/rules/testctl.mdc")+"\nMy own rule.\n"), 0o644)
	if r := e.Run("agent", "setup", "--agent", "all", "--remove"); r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	for _, name := range []string{".claude/skills/testctl", "AGENTS.md", ".github/copilot-instructions.md"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s, wholly testctl's, is still there: %v", name, err)
		}
	}
	if got := read(t, dir, ".cursor/rules/testctl.mdc"); strings.Contains(got, "testctl:begin") || !strings.HasSuffix(got, "\nMy own rule.\n") {
		t.Errorf("the rule with the user's text: %q", got)
	}
	if r := e.Run("agent", "setup", "--agent", "codex", "--remove"); r.Code != 0 || !strings.Contains(r.Stderr, "nothing to remove") {
		t.Errorf("removing twice: exit %d\n%s", r.Code, r.Stderr)
	}
}

func TestSetupPrintWritesNothing(t *testing.T) {
	e, dir := inDir(t)
	r := e.Run("agent", "setup", "--agent", "claude", "--print")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "---\nname: testctl\n") {
		t.Errorf("exit %d\n%s", r.Code, r.Stdout)
	}
	r = e.Run("agent", "setup", "--agent", "codex", "--agent", "copilot", "--print")
	cmdtest.Contains(t, "stdout", r.Stdout, "==> AGENTS.md <==\n<!-- testctl:begin -->", "==> .github/copilot-instructions.md <==")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("--print wrote %v", entries)
	}
}

func TestSetupWritesAtTheRepositoryRoot(t *testing.T) {
	e := cmdtest.New(t)
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	sub := filepath.Join(dir, "web", "src")
	os.MkdirAll(sub, 0o755)
	t.Chdir(sub)
	r := e.Run("agent", "setup", "--agent", "codex")
	if r.Code != 0 {
		t.Fatal(r.Stderr)
	}
	cmdtest.Contains(t, "stderr", r.Stderr, "At the root of the git repository")
	if _, err := os.Stat(filepath.Join(dir, "AGENTS.md")); err != nil {
		t.Errorf("AGENTS.md not at the root: %v", err)
	}
}
