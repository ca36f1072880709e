package integrations_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/prcomment/prcommenttest"

	"github.com/testctl/testctl/pkg/sandbox"
)

// The Action under nektos/act: a workflow uses testctl/testctl@v1 (this
// worktree, through act's --local-repository), installs the release served
// on loopback and runs against the sandbox; a later step and a later job
// read its outputs.

// actInputs are the Action's inputs for plan against the sandbox on rel.
func actInputs(rel *release, sb *sandbox.Instance, plan string) map[string]string {
	return sandboxInputs(rel, sb, plan)
}

// with is inputs and more.
func with(in map[string]string, more ...string) map[string]string {
	out := map[string]string{}
	for k, v := range in {
		out[k] = v
	}
	for i := 0; i+1 < len(more); i += 2 {
		out[more[i]] = more[i+1]
	}
	return out
}

func actPushWorkflow(inputs map[string]string) actWorkflow {
	return actWorkflow{Jobs: map[string]any{"test": actJob(inputs), "later": laterJob}}
}

// A passing plan passes the job, and a later step and a later job read the
// outputs; a failing one on the same runner fails it with exit 1, from the
// tool cache: no second download.
func TestActPassFailAndToolCache(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	cache := t.TempDir()

	w := actPushWorkflow(actInputs(rel, sb, "pln-passing_sandbox"))
	w.Cache = cache
	pass := runAct(t, w)
	if pass.Code != 0 {
		t.Fatalf("passing plan: act exit %d, want 0\n%s", pass.Code, pass.Log)
	}
	out := pass.outputs(t, "test")
	cmdtest.WantValues(t, "the step after the Action", out, map[string]string{"verdict": "passed", "exit-code": "0", "junit": "testctl-junit.xml", "html": "testctl-report.html"})
	id := out["run-short-id"]
	if id == "" || !strings.HasSuffix(out["run-url"], "/"+id) {
		t.Errorf("run-short-id %q, run-url %q: want the run's id and its URL", id, out["run-url"])
	}
	cmdtest.WantValues(t, "the later job", readJSONFile(t, filepath.Join(pass.Out, "later.json")), map[string]string{"verdict": "passed", "run-short-id": id})
	for _, f := range []string{"testctl-junit.xml", "testctl-report.html"} {
		if _, err := os.Stat(filepath.Join(pass.Out, "test", f)); err != nil {
			t.Errorf("the workspace has no %s: %v", f, err)
		}
	}
	if strings.Contains(pass.Log, testKey) {
		t.Error("the API key appears in act's log")
	}
	if n := rel.requests.Load(); n != 2 {
		t.Errorf("first job: %d requests to the release server, want 2 (archive, checksums.txt)", n)
	}
	if _, err := os.Stat(filepath.Join(cache, "tool_cache", "testctl", releaseVersion, "x64.complete")); err != nil && runtime.GOARCH == "amd64" {
		t.Errorf("the tool cache has no completed install: %v", err)
	}

	w = actPushWorkflow(actInputs(rel, sb, "pln-failing_sandbox"))
	w.Cache = cache
	fail := runAct(t, w)
	if fail.Code == 0 {
		t.Fatalf("failing plan: the workflow passed\n%s", fail.Log)
	}
	cmdtest.WantValues(t, "the step after the Action", fail.outputs(t, "test"), map[string]string{"verdict": "failed", "exit-code": "1", "junit": "testctl-junit.xml"})
	if got := readFile(t, filepath.Join(fail.Out, "test.outcome")); got != "failure" {
		t.Errorf("the Action's outcome is %q, want failure", got)
	}
	cmdtest.WantValues(t, "the later job", readJSONFile(t, filepath.Join(fail.Out, "later.json")), map[string]string{"verdict": "failed"})
	if n := rel.requests.Load(); n != 2 {
		t.Errorf("the second job made %d requests to the release server, want none: the tool cache has the release", n-2)
	}
	if !strings.Contains(fail.Log, "from the tool cache") {
		t.Errorf("the second job does not say it used the tool cache:\n%s", fail.Log)
	}
}

// wait: false starts the run and passes; several plans give one run each
// in runs-json; test cases start one run; a timeout is exit 7.
func TestActWaitFalseSeveralPlansAndTestCases(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	in := actInputs(rel, sb, "")
	w := actWorkflow{Jobs: map[string]any{
		"nowait": map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("nowait", with(in, "plan", "pln-slow_sandbox", "wait", "false"))},
		"plans":  map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("plans", with(in, "plan", "pln-passing_sandbox\npln-flaky_sandbox\n"))},
		"cases":  map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("cases", with(in, "test-cases", sandbox.TestCaseLogin))},
		"slow":   map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("slow", with(in, "plan", "pln-slow_sandbox", "timeout", "1s"))},
	}}
	res := runAct(t, w)

	cmdtest.WantValues(t, "a timeout", res.outputs(t, "slow"), map[string]string{"verdict": "timeout", "exit-code": "7", "junit": "testctl-junit.xml"})

	nowait := res.outputs(t, "nowait")
	cmdtest.WantValues(t, "wait false", nowait, map[string]string{"verdict": "started", "exit-code": "0", "junit": ""})
	if nowait["run-short-id"] == "" {
		t.Errorf("wait false: no run-short-id: %v\n%s", nowait, res.Log)
	}

	plans := res.outputs(t, "plans")
	var runs []map[string]any
	if err := json.Unmarshal([]byte(plans["runs-json"]), &runs); err != nil || len(runs) != 2 {
		t.Errorf("several plans: runs-json %q, want two runs (%v)", plans["runs-json"], err)
	}
	if plans["exit-code"] == "" || plans["verdict"] == "" {
		t.Errorf("several plans: outputs %v", plans)
	}

	cases := res.outputs(t, "cases")
	if cases["exit-code"] == "" || cases["run-short-id"] == "" {
		t.Errorf("test cases: outputs %v\n%s", cases, res.Log)
	}
	if t.Failed() {
		t.Log(res.Log)
	}
}

// Inputs under act: args is split as a shell splits words, nothing in it
// run; unbalanced quotes, the key in args and a bad boolean are usage
// errors (exit 2) that start nothing; a version without a release, or a
// path, stops the install; plan and app take a value a line.
func TestActArgs(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	in := actInputs(rel, sb, "pln-passing_sandbox")
	w := actWorkflow{Jobs: map[string]any{
		"meta": map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("meta",
			with(in, "wait", "false", "args", `--commit-message "two words $(touch /tmp/pwned-$$) ; echo hi | cat" --branch 'feature/x&y'`))},
		"unbalanced": map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("unbalanced",
			with(in, "args", `--commit-message "it's`))},
		"keyinargs": map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("keyinargs",
			with(in, "api-key", "", "args", "--api-key="+testKey))},
		"badbool": map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("badbool",
			with(in, "fail-on-flaky", "yes"))},
		"noversion": map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("noversion",
			with(in, "version", "v0.0.9"))},
		"pathversion": map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("pathversion",
			with(in, "version", "../../../etc"))},
		"multiline": map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse("multiline",
			with(in, "plan", "pln-passing_sandbox\n  pln-failing_sandbox  \n\n", "wait", "false", "codehost", "false",
				"app", "app_sandbox-web,env=env_sandbox-staging,name=Shop web\n", "args", "--dry-run"))},
	}}
	res := runAct(t, w)
	meta := res.outputs(t, "meta")
	cmdtest.WantValues(t, "args with metacharacters", meta, map[string]string{"exit-code": "0", "verdict": "started"})
	if id := meta["run-short-id"]; id != "" {
		run := listedRun(t, sb, id)
		if run["branch"] != "feature/x&y" {
			t.Errorf("the run's branch %q: want args' word as given", run["branch"])
		}
		if !strings.Contains(res.Log, "--commit-message 'two words $(touch /tmp/pwned-$$) ; echo hi | cat' --branch 'feature/x&y'") {
			t.Errorf("args were not split into words as given:\n%s", res.Log)
		}
	} else {
		t.Errorf("args with metacharacters: no run started:\n%s", res.Log)
	}
	if m, _ := filepath.Glob("/tmp/pwned-*"); len(m) != 0 {
		t.Errorf("a command substitution in args was run: %v", m)
	}
	cmdtest.WantValues(t, "unbalanced quotes", res.outputs(t, "unbalanced"), map[string]string{"exit-code": "2", "verdict": "usage"})
	if !strings.Contains(res.Log, "input args: the double quote at character 18 is never closed") {
		t.Errorf("the log does not say what is wrong with args:\n%s", res.Log)
	}

	// A key in args would reach testctl's argv, where other processes see
	// it: refused, and never printed.
	cmdtest.WantValues(t, "the key in args", res.outputs(t, "keyinargs"), map[string]string{"exit-code": "2", "verdict": "usage"})
	if !strings.Contains(res.Log, "pass the key in the api-key input") || strings.Contains(withoutMaskCommands(res.Log), testKey) {
		t.Errorf("the key in args: want it refused and never printed:\n%s", res.Log)
	}
	cmdtest.WantValues(t, "a bad boolean", res.outputs(t, "badbool"), map[string]string{"exit-code": "2", "verdict": "usage"})
	if !strings.Contains(res.Log, "input fail-on-flaky must be true or false") {
		t.Errorf("the bad boolean's error does not name the input:\n%s", res.Log)
	}
	// A version without a release, or one that is a path: the install
	// stops, naming what was missing, and the outputs stay empty.
	cmdtest.WantValues(t, "an unknown version", res.outputs(t, "noversion"), map[string]string{"exit-code": "", "verdict": ""})
	if !strings.Contains(res.Log, "could not download "+rel.URL+"/v0.0.9/testctl_0.0.9_") {
		t.Errorf("the missing archive is not named:\n%s", res.Log)
	}
	cmdtest.WantValues(t, "a version that is a path", res.outputs(t, "pathversion"), map[string]string{"exit-code": "", "verdict": ""})
	if !strings.Contains(res.Log, "input version '../../../etc' is not a release version") {
		t.Errorf("a version that is a path is not refused:\n%s", res.Log)
	}
	// plan and app take one value a line, as YAML block scalars give them;
	// a spec keeps its spaces.
	for _, want := range []string{`"testPlanShortId": "pln-passing_sandbox"`, `"testPlanShortId": "pln-failing_sandbox"`, `"name": "Shop web"`} {
		if !strings.Contains(res.Log, want) {
			t.Errorf("the request has no %s:\n%s", want, res.Log)
		}
	}
}

// A tampered archive is refused: the job fails naming the checksum, nothing
// runs, the outputs are empty, nothing is left in the tool cache.
func TestActRefusesATamperedArchive(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	rel.tamper()
	w := actPushWorkflow(actInputs(rel, sb, "pln-passing_sandbox"))
	res := runAct(t, w)
	if res.Code == 0 || !strings.Contains(res.Log, "does not match its SHA-256 in checksums.txt") {
		t.Fatalf("act exit %d: want the job failed for the checksum\n%s", res.Code, res.Log)
	}
	cmdtest.WantValues(t, "after a refused install", res.outputs(t, "test"), map[string]string{"exit-code": "", "verdict": ""})
	if strings.Contains(res.Log, "Started run") {
		t.Error("testctl ran although its archive failed the check")
	}
	if m, _ := filepath.Glob(filepath.Join(w.Cache, "tool_cache", "testctl", "*", "*")); len(m) != 0 {
		t.Errorf("the tool cache keeps %v after a refused install", m)
	}
}

// Four jobs at once on a fresh tool cache all install and pass, ten times
// over: none sees the install of another removed under it.
func TestActFourJobsAtOnceShareAFreshToolCache(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	in := actInputs(rel, sb, "pln-passing_sandbox")
	jobs := map[string]any{}
	for i := 1; i <= 4; i++ {
		jobs[fmt.Sprintf("job%d", i)] = map[string]any{"runs-on": "ubuntu-latest", "steps": actionUse(fmt.Sprintf("job%d", i), in)}
	}
	for try := 1; try <= 10; try++ {
		res := runAct(t, actWorkflow{Jobs: jobs, Flags: []string{"--concurrent-jobs", "4"}})
		for i := 1; i <= 4; i++ {
			out := res.outputs(t, fmt.Sprintf("job%d", i))
			if out["exit-code"] != "0" || out["verdict"] != "passed" {
				t.Errorf("try %d, job %d: outputs %v, want exit-code 0 and passed", try, i, out)
			}
		}
		if res.Code != 0 || strings.Contains(res.Log, "No such file or directory") {
			t.Fatalf("try %d: act exit %d\n%s", try, res.Code, res.Log)
		}
	}
}

// A download server that accepts and never answers fails the install in
// bounded time, naming the URL and that the download stalled.
func TestActDownloadFromASilentServerIsBounded(t *testing.T) {
	needAct(t)
	t.Parallel()
	sb := startSandbox(t)
	url := silentServer(t)
	in := actInputs(&release{URL: url}, sb, "pln-passing_sandbox")
	w := actPushWorkflow(in)
	w.Env = map[string]string{"TESTCTL_DOWNLOAD_STALL_TIMEOUT": "1", "TESTCTL_DOWNLOAD_CONNECT_TIMEOUT": "1", "TESTCTL_DOWNLOAD_RETRIES": "1"}
	start := time.Now()
	res := runAct(t, w)
	took := time.Since(start)
	if res.Code == 0 {
		t.Fatalf("the job passed without its download:\n%s", res.Log)
	}
	want := "::error title=testctl install::could not download " + url + "/v" + releaseVersion + "/testctl_" + releaseVersion + "_"
	if !strings.Contains(res.Log, want) || !strings.Contains(res.Log, "the download stalled, less than 1024 bytes a second for 1s (tried 2 times)") {
		t.Errorf("the error does not name the URL and the stall (%q):\n%s", want, res.Log)
	}
	// Two stalled tries of a second each, a second between them, and act's
	// own start: far from the minutes of an unbounded download.
	if took > time.Minute {
		t.Errorf("the install took %v against a silent server", took)
	}
}

// Events without a branch or a checkout: a tag push, workflow_dispatch and
// schedule. Each starts the run and passes.
func TestActTagDispatchAndSchedule(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	in := actInputs(rel, sb, "pln-passing_sandbox")
	sha := "0123456789abcdef0123456789abcdef01234567"
	repo := map[string]any{"full_name": "shop/web", "default_branch": "main", "name": "web", "owner": map[string]any{"login": "shop"}}
	cases := []struct {
		name string
		w    actWorkflow
	}{
		// What each start sends is docs/ci.md's "What --codehost sends,
		// event by event": a tag's name as the branch; without a checkout
		// nor a head commit, no commit message, hence trigger API and a
		// warning annotation.
		{"tag push", actWorkflow{Event: "push", Payload: map[string]any{
			"ref": "refs/tags/v1.2.3", "after": sha, "repository": repo, "pusher": map[string]any{"name": "octocat"},
			"head_commit": map[string]any{"id": sha, "message": "Release 1.2.3"}}}},
		{"workflow_dispatch", actWorkflow{Event: "workflow_dispatch", Payload: map[string]any{
			"ref": "refs/heads/main", "inputs": map[string]any{}, "repository": repo, "sender": map[string]any{"login": "octocat"}}}},
		{"schedule", actWorkflow{Event: "schedule", Payload: map[string]any{"schedule": "0 3 * * *", "repository": repo}}},
	}
	var wg sync.WaitGroup
	results := make([]actResult, len(cases))
	for i, c := range cases {
		c.w.Jobs = map[string]any{"test": actJob(in), "later": laterJob}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runAct(t, c.w)
		}()
	}
	wg.Wait()
	for i, c := range cases {
		res := results[i]
		out := res.outputs(t, "test")
		if res.Code != 0 {
			t.Errorf("%s: act exit %d, want 0\n%s", c.name, res.Code, res.Log)
			continue
		}
		cmdtest.WantValues(t, c.name, out, map[string]string{"exit-code": "0", "verdict": "passed"})
		run := listedRun(t, sb, out["run-short-id"])
		want := map[string]any{"trigger": "API", "branch": "main"}
		if c.name == "tag push" {
			want = map[string]any{"trigger": "CODEHOST", "branch": "v1.2.3"}
		} else if !strings.Contains(res.Log, "::warning") || !strings.Contains(res.Log, "--commit-message") {
			t.Errorf("%s: no warning annotation naming --commit-message:\n%s", c.name, res.Log)
		}
		for k, v := range want {
			if run[k] != v {
				t.Errorf("%s: the run's %s is %v, want %v", c.name, k, run[k], v)
			}
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// With comment: true on a pull request, the Action keeps one comment on it
// through GitHub's REST and GraphQL APIs (a local fake at GITHUB_API_URL,
// which knows the token as github-actions[bot]): created by
// the first run, edited in place by the next; a fork's read-only token
// gets one notice, and the job's result and outputs are the verdict's.
func TestActPullRequestComment(t *testing.T) {
	needAct(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	const token = "ghs_e2eCommentToken0123456789"
	api := prcommenttest.NewGitHub(t, token)
	pr := map[string]any{"action": "synchronize", "number": api.Number,
		"pull_request": map[string]any{"number": api.Number, "head": map[string]any{"ref": "feature", "sha": "0123456789abcdef0123456789abcdef01234567"},
			"title": "Fix the checkout total", "user": map[string]any{"login": "octocat"}},
		"repository": map[string]any{"full_name": "octo/app", "name": "app", "owner": map[string]any{"login": "octo"}, "default_branch": "main"},
		"sender":     map[string]any{"login": "octocat"}}
	run := func(plan string) actResult {
		in := with(actInputs(rel, sb, plan), "comment", "true", "github-token", token)
		return runAct(t, actWorkflow{Event: "pull_request", Payload: pr, Jobs: map[string]any{"test": actJob(in)},
			Env: map[string]string{"GITHUB_API_URL": api.URL, "GITHUB_REPOSITORY": "octo/app"}})
	}
	first := run("pln-failing_sandbox")
	cmdtest.WantValues(t, "failing run", first.outputs(t, "test"), map[string]string{"exit-code": "1", "verdict": "failed"})
	comments := api.Comments()
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "<!-- testctl:comment") {
		t.Fatalf("after the first run, comments %+v, want one with testctl's marker\n%s", comments, first.Log)
	}
	second := run("pln-passing_sandbox")
	cmdtest.WantValues(t, "passing run", second.outputs(t, "test"), map[string]string{"exit-code": "0", "verdict": "passed"})
	after := api.Comments()
	if len(after) != 1 || after[0].ID != comments[0].ID || after[0].Body == comments[0].Body {
		t.Errorf("after the second run, comments %+v: want the same one, edited", after)
	}
	for _, res := range []actResult{first, second} {
		if strings.Contains(res.Log, token) {
			t.Error("the token appears in act's log")
		}
	}

	api.ReadOnly() // a fork's token
	fork := run("pln-passing_sandbox")
	cmdtest.WantValues(t, "fork", fork.outputs(t, "test"), map[string]string{"exit-code": "0", "verdict": "passed"})
	if fork.Code != 0 || !strings.Contains(fork.Log, "::notice") {
		t.Errorf("fork: act exit %d, want 0 with a notice\n%s", fork.Code, fork.Log)
	}
	if got := api.Comments(); len(got) != 1 || got[0].Body != after[0].Body {
		t.Errorf("fork: the comment changed: %+v", got)
	}
}
