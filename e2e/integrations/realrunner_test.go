package integrations_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// This file runs the Action under nektos/act and the component under
// gitlab-ci-local: the runners' own code reads action.yml and
// templates/run.yml, resolves expressions and inputs, passes outputs
// between steps and jobs and collects artefacts, where the emulation in
// action_runner_test.go and gitlab_runner_test.go is this project's reading
// of the docs. .ci/run installs both; a test that needs one skips without
// it, except under CI=true, where it fails (tools_test.go).

// runnerDeadline bounds one act or gitlab-ci-local run: a hang fails the
// test with the runner's output instead of stalling the suite.
const runnerDeadline = 4 * time.Minute

// repoRoot is the worktree: the Action act runs and the component's file.
func repoRoot(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runnerEnv is the environment of a runner process: the host's PATH, a
// home of the test's own (testctl's config, git's), and nothing of the
// host's TESTCTL_* settings.
func runnerEnv(t *testing.T, home string) []string {
	t.Helper()
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "TMPDIR=" + os.TempDir(), "LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1", "NO_COLOR=1", "FORCE_COLOR=0",
	}
}

// runProcess runs a runner to its end (within runnerDeadline) and gives its
// combined output and exit code.
func runProcess(t *testing.T, dir string, env []string, name string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runnerDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s did not end within %v:\n%s", filepath.Base(name), runnerDeadline, out)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(out), code
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Tanuki", "-c", "user.email=tanuki@example.com", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readJSONFile(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return m
}

func mustYAML(t *testing.T, v any) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// silentServer accepts connections and never answers: the download server
// that hangs a job without a bound.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}

// ---- nektos/act ----

// actWorkflow is one workflow run under act.
type actWorkflow struct {
	Event   string            // push (default), workflow_dispatch, schedule
	Payload map[string]any    // the event's payload (act's -e)
	Jobs    map[string]any    // the workflow's jobs
	Env     map[string]string // act --env: the jobs' environment
	// Cache is act's --action-cache-path, which holds the runner's tool
	// cache (tool_cache/): runs given the same one share it.
	Cache string
	Flags []string
}

// actResult is what a user of the workflow sees.
type actResult struct {
	Code int    // act's exit code: 0 when every job succeeded
	Log  string // act's output
	Out  string // $OUT, where the workflow's later steps leave what they read
}

// pushPayload is GitHub's payload of a push to main: the branch in ref, the
// commit's message in head_commit.
var pushPayload = map[string]any{
	"ref": "refs/heads/main", "after": "0123456789abcdef0123456789abcdef01234567",
	"repository":  map[string]any{"full_name": "shop/web", "name": "web", "default_branch": "main", "owner": map[string]any{"login": "shop"}},
	"pusher":      map[string]any{"name": "octocat"},
	"head_commit": map[string]any{"id": "0123456789abcdef0123456789abcdef01234567", "message": "Fix the checkout total"},
}

// actionUse is a job that uses the Action with inputs, then records in
// $OUT/NAME.json the Action's outputs and its outcome as the next step
// sees them, and copies the workspace's reports to $OUT/NAME/.
func actionUse(name string, inputs map[string]string) []any {
	return []any{
		map[string]any{"id": "t", "uses": "testctl/testctl@v1", "with": inputs},
		map[string]any{
			"if":  "always()",
			"env": map[string]string{"OUTPUTS": "${{ toJSON(steps.t.outputs) }}", "OUTCOME": "${{ steps.t.outcome }}"},
			"run": `mkdir -p "$OUT/` + name + `" && printf '%s' "$OUTPUTS" > "$OUT/` + name + `.json" && printf '%s' "$OUTCOME" > "$OUT/` + name + `.outcome"` +
				` && for f in testctl-junit.xml testctl-report.html; do if [ -f "$f" ]; then cp "$f" "$OUT/` + name + `/"; fi; done`,
		},
	}
}

// actJob is a job of the workflow that uses the Action once.
func actJob(inputs map[string]string) map[string]any {
	return map[string]any{
		"runs-on": "ubuntu-latest",
		"outputs": map[string]string{"verdict": "${{ steps.t.outputs.verdict }}", "run-short-id": "${{ steps.t.outputs.run-short-id }}"},
		"steps":   actionUse("test", inputs),
	}
}

// laterJob reads the first job's outputs, as a job that needs it does.
var laterJob = map[string]any{
	"runs-on": "ubuntu-latest", "needs": "test", "if": "always()",
	"steps": []any{map[string]any{
		"env": map[string]string{"VERDICT": "${{ needs.test.outputs.verdict }}", "ID": "${{ needs.test.outputs.run-short-id }}"},
		"run": `printf '{"verdict":"%s","run-short-id":"%s"}' "$VERDICT" "$ID" > "$OUT/later.json"`,
	}},
}

// runAct runs the workflow under act in host mode (no Docker: the runner's
// host is this machine, as on a self-hosted runner), the Action
// testctl/testctl@v1 being this worktree.
func runAct(t *testing.T, w actWorkflow) actResult {
	t.Helper()
	act := mustToolPath(t, "act") // the test called needAct
	if act == "" {
		return actResult{Code: -1}
	}
	home := t.TempDir()
	dir := filepath.Join(home, "repo")
	out := filepath.Join(home, "out")
	if w.Cache == "" {
		w.Cache = filepath.Join(home, "act-cache")
	}
	for _, d := range []string{dir, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	event := w.Event
	if event == "" {
		event = "push"
	}
	wf := map[string]any{"name": "e2e", "on": []string{event}, "jobs": w.Jobs}
	writeFile(t, filepath.Join(dir, ".github", "workflows", "e2e.yml"), mustYAML(t, wf))
	// act takes GITHUB_SHA from the working directory's git commit, as
	// GitHub sets it for every event. In host mode it copies nothing into
	// the job's workspace: every job here runs without a checkout, as the
	// docs' workflows (no actions/checkout) do.
	writeFile(t, filepath.Join(dir, "README.md"), "# shop\n")
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "Fix the checkout total")
	payload := w.Payload
	if payload == nil && event == "push" {
		payload = pushPayload
	}
	b, _ := json.Marshal(payload)
	eventPath := filepath.Join(home, "event.json")
	writeFile(t, eventPath, string(b))
	args := []string{event, "-W", filepath.Join(dir, ".github", "workflows", "e2e.yml"), "-e", eventPath,
		"-P", "ubuntu-latest=-self-hosted", "--action-cache-path", w.Cache,
		"--local-repository", "testctl/testctl@v1=" + actionRepo(t), "--env", "OUT=" + out}
	for k, v := range w.Env {
		args = append(args, "--env", k+"="+v)
	}
	args = append(args, w.Flags...)
	log, code := runProcess(t, dir, runnerEnv(t, home), act, args...)
	return actResult{Code: code, Log: log, Out: out}
}

// actionRepo is the Action as act fetches it for testctl/testctl@v1: a
// directory with this tree's action.yml alone, since act copies the whole
// directory into every job (the worktree would be megabytes a job).
func actionRepo(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "action.yml"), string(b))
	return dir
}

// outputs are what the step after the Action's read of its outputs, nil
// when that step never ran.
func (r actResult) outputs(t *testing.T, name string) map[string]string {
	t.Helper()
	return readJSONFile(t, filepath.Join(r.Out, name+".json"))
}

// ---- gitlab-ci-local ----

// componentProject is the GitLab project a pipeline runs in: a git
// repository whose origin is the component's project, holding
// templates/run.yml at HEAD, so gitlab-ci-local reads
// `include: component: gitlab.com/testctl/testctl/run@<HEAD>` from it, as
// GitLab would read the component from its catalog.
const componentProject = "gitlab.com/testctl/testctl/run"

// glPipeline is one pipeline under gitlab-ci-local.
type glPipeline struct {
	Includes []map[string]string // the inputs of each include of the component
	Jobs     map[string]any      // more jobs
	Vars     map[string]string   // --variable: CI/CD variables (and predefined ones to override)
	Flags    []string
	// Setup may change the project (a tag) after its commit.
	Setup func(dir string)
}

type glResult struct {
	Code  int            // gitlab-ci-local's exit code: 0 when every job passed
	Log   string         // its output
	Jobs  map[string]int // each job's exit code as the pipeline shows it
	Dir   string         // the project: $CI_PROJECT_DIR under the shell executor
	Out   string         // $OUT, where later jobs leave what they read
	Stash string         // .gitlab-ci-local/artifacts: each job's artefacts
}

// laterGitLabJob reads the dotenv report of the jobs before it, as a job of
// a later stage does.
func laterGitLabJob(name string) map[string]any {
	return map[string]any{
		"stage": ".post", "when": "always",
		"script": []string{`printf '{"TESTCTL_RUN_SHORT_ID":"%s","TESTCTL_RUN_URL":"%s"}' "$TESTCTL_RUN_SHORT_ID" "$TESTCTL_RUN_URL" > "$OUT/` + name + `.json"`},
	}
}

var jobLine = regexp.MustCompile(`(?m)^(\S+)\s+finished in .*?(?:FAIL (\d+))?\s*$`)

// runGitLabCI runs the pipeline under gitlab-ci-local with the shell
// executor: the host is the job's machine (no Docker), as a shell runner's.
func runGitLabCI(t *testing.T, p glPipeline) glResult {
	t.Helper()
	gcl := mustToolPath(t, "gitlab-ci-local") // the test called needGitLabCILocal
	if gcl == "" {
		return glResult{Code: -1}
	}
	home := t.TempDir()
	dir := filepath.Join(home, "project")
	out := filepath.Join(home, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	tmpl, err := os.ReadFile(filepath.Join(repoRoot(t), "templates", "run.yml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "templates", "run.yml"), string(tmpl))
	writeFile(t, filepath.Join(dir, ".gitignore"), ".gitlab-ci-local/\n")
	git(t, dir, "init", "-q")
	git(t, dir, "remote", "add", "origin", "git@gitlab.com:testctl/testctl.git")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "Bump the cart service")
	if p.Setup != nil {
		p.Setup(dir)
	}
	sha := git(t, dir, "rev-parse", "HEAD")
	var includes []any
	for _, in := range p.Includes {
		includes = append(includes, map[string]any{"component": componentProject + "@" + sha, "inputs": in})
	}
	ci := map[string]any{"include": includes}
	for k, v := range p.Jobs {
		ci[k] = v
	}
	// Left out of the commit: gitlab-ci-local reads the file from the
	// working tree, and the component's ref must be HEAD.
	writeFile(t, filepath.Join(dir, ".gitlab-ci.yml"), mustYAML(t, ci))
	args := []string{"--force-shell-executor", "--variable", "OUT=" + out}
	for k, v := range p.Vars {
		args = append(args, "--variable", k+"="+v)
	}
	args = append(args, p.Flags...)
	log, code := runProcess(t, dir, runnerEnv(t, home), gcl, args...)
	res := glResult{Code: code, Log: log, Jobs: map[string]int{}, Dir: dir, Out: out, Stash: filepath.Join(dir, ".gitlab-ci-local", "artifacts")}
	for _, m := range jobLine.FindAllStringSubmatch(log, -1) {
		c := 0
		if m[2] != "" {
			c, _ = strconv.Atoi(m[2])
		}
		res.Jobs[m[1]] = c
	}
	delete(res.Jobs, "pipeline") // "pipeline finished in …"
	return res
}

// artefacts lists the files a job archived, paths relative to its archive,
// without gitlab-ci-local's own reports directory.
func (r glResult) artefacts(t *testing.T, job string) []string {
	t.Helper()
	root := filepath.Join(r.Stash, job)
	var files []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && rel == ".gitlab-ci-reports" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	return files
}
