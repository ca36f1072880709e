package integrations_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/sandbox"
)

// The component under gitlab-ci-local: a pipeline includes
// gitlab.com/testctl/testctl/run at HEAD of a project holding this tree's
// templates/run.yml, installs the release served on loopback and runs
// against the sandbox; a job of a later stage reads the dotenv report.

// glVars are the project's CI/CD variables: the key, masked in GitLab.
var glVars = map[string]string{"TESTCTL_API_KEY": testKey}

// A passing plan passes the job, a later job reads the run's id, and the
// HTML report is the one file archived (the project's .git/ is not).
func TestGitLabCIPassWithTheHTMLReportArchived(t *testing.T) {
	needGitLabCILocal(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	res := runGitLabCI(t, glPipeline{
		Includes: []map[string]string{componentInputs(rel, sb, "pln-passing_sandbox")},
		Jobs:     map[string]any{"later": laterGitLabJob("later")},
		Vars:     glVars,
	})
	if res.Code != 0 || res.Jobs["testctl"] != 0 {
		t.Fatalf("gitlab-ci-local exit %d, jobs %v: want the job passed\n%s", res.Code, res.Jobs, res.Log)
	}
	later := readJSONFile(t, filepath.Join(res.Out, "later.json"))
	id := later["TESTCTL_RUN_SHORT_ID"]
	if id == "" || !strings.HasSuffix(later["TESTCTL_RUN_URL"], "/"+id) {
		t.Errorf("the later job read %v: want the run's short id and URL", later)
	}
	if got := res.artefacts(t, "testctl"); !slices.Equal(got, []string{"testctl-report/testctl-report.html"}) {
		t.Errorf("the job archived %v, want only testctl-report/testctl-report.html", got)
	}
	if run := listedRun(t, sb, id); run["trigger"] != "CODEHOST" || run["branch"] != "main" {
		t.Errorf("run %s: trigger %v, branch %v: want CODEHOST on main, from GitLab's variables", id, run["trigger"], run["branch"])
	}
	if strings.Contains(res.Log, testKey) {
		t.Error("the API key appears in the pipeline's log")
	}
}

// An empty html writes no HTML report, and the job archives nothing: no empty
// path that would take the whole project, .git/ included.
func TestGitLabCIHTMLEmptyArchivesNothing(t *testing.T) {
	needGitLabCILocal(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	in := componentInputs(rel, sb, "pln-passing_sandbox")
	in["html"] = ""
	res := runGitLabCI(t, glPipeline{Includes: []map[string]string{in}, Vars: glVars})
	if res.Code != 0 {
		t.Fatalf("gitlab-ci-local exit %d\n%s", res.Code, res.Log)
	}
	if got := res.artefacts(t, "testctl"); len(got) != 0 {
		n := len(got)
		t.Errorf("html '': the job archived %d files (%v…), want none", n, got[:min(n, 5)])
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "testctl-report")); err == nil {
		t.Error("html '': testctl-report/ was written")
	}
}

// A failing plan fails the job with exit 1, a timeout with 7, and a later
// job still reads a run's id; a key in args (it would reach testctl's
// argv) fails its job with 2 and is never printed.
func TestGitLabCIFailTimeoutAndTheKeyInArgs(t *testing.T) {
	needGitLabCILocal(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	slow := componentInputs(rel, sb, "pln-slow_sandbox")
	slow["job-name"], slow["timeout"], slow["junit"], slow["html"] = "slow", "1s", "slow-junit.xml", ""
	key := componentInputs(rel, sb, "pln-passing_sandbox")
	key["job-name"], key["args"] = "key", "--api-key "+testKey
	res := runGitLabCI(t, glPipeline{
		Includes: []map[string]string{componentInputs(rel, sb, "pln-failing_sandbox"), slow, key},
		Jobs:     map[string]any{"later": laterGitLabJob("later")},
		Vars:     glVars,
	})
	if res.Code == 0 || res.Jobs["testctl"] != 1 || res.Jobs["slow"] != 7 {
		t.Fatalf("gitlab-ci-local exit %d, jobs %v: want the failing job's 1 and the slow one's 7\n%s", res.Code, res.Jobs, res.Log)
	}
	// Both jobs' dotenv reports give the same variables: the later job
	// reads one of them, as on GitLab.
	if later := readJSONFile(t, filepath.Join(res.Out, "later.json")); later["TESTCTL_RUN_SHORT_ID"] == "" {
		t.Errorf("the later job read %v: want a run's id", later)
	}
	if res.Jobs["key"] != 2 || !strings.Contains(res.Log, "the key is the TESTCTL_API_KEY variable") {
		t.Errorf("the key in args: job exit %d, want 2 and the key refused\n%s", res.Jobs["key"], res.Log)
	}
	if strings.Contains(res.Log, testKey) {
		t.Error("the key given in args was printed")
	}
}

// Included twice with two job names: two jobs, each with its own inputs.
// Several plans and test cases, args with shell metacharacters in one and
// unbalanced quotes in another, all in one pipeline.
func TestGitLabCIIncludedTwiceSeveralPlansTestCasesAndArgs(t *testing.T) {
	needGitLabCILocal(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	plans := componentInputs(rel, sb, "pln-passing_sandbox pln-skipped_sandbox")
	plans["args"] = `--branch 'feature/x&y' --commit-message "two words $(touch pwned) ; echo hi | cat"`
	cases := componentInputs(rel, sb, "")
	cases["job-name"] = "testctl-cases"
	cases["test-cases"] = sandbox.TestCaseLogin
	cases["junit"] = "cases-junit.xml"
	cases["html"] = "cases.html"
	bad := componentInputs(rel, sb, "pln-passing_sandbox")
	bad["job-name"] = "testctl-bad"
	bad["args"] = `--commit-message "it's`
	dir := componentInputs(rel, sb, "pln-passing_sandbox")
	dir["job-name"], dir["html"] = "testctl-dir", "reports/e2e.html"
	res := runGitLabCI(t, glPipeline{Includes: []map[string]string{plans, cases, bad, dir}, Vars: glVars})
	if len(res.Jobs) != 4 {
		t.Fatalf("jobs %v: want testctl, testctl-cases, testctl-bad and testctl-dir\n%s", res.Jobs, res.Log)
	}
	// html is a file name in testctl-report/: one with a directory is a
	// usage error that starts nothing.
	if res.Jobs["testctl-dir"] != 2 || !strings.Contains(res.Log, "input html: 'reports/e2e.html' is a file name") {
		t.Errorf("html with a directory: job exit %d, want 2 naming the input", res.Jobs["testctl-dir"])
	}
	if res.Jobs["testctl"] != 0 {
		t.Errorf("several plans: job exit %d, want 0\n%s", res.Jobs["testctl"], res.Log)
	}
	if !strings.Contains(res.Log, "--plan pln-passing_sandbox --plan pln-skipped_sandbox") {
		t.Errorf("the two plans are not two --plan arguments:\n%s", res.Log)
	}
	if !strings.Contains(res.Log, "--branch 'feature/x&y' --commit-message 'two words $(touch pwned) ; echo hi | cat'") {
		t.Errorf("args were not split into words as given:\n%s", res.Log)
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "pwned")); err == nil {
		t.Error("a command substitution in args was run")
	}
	if res.Jobs["testctl-cases"] != 0 {
		t.Errorf("test cases: job exit %d, want 0", res.Jobs["testctl-cases"])
	}
	if _, err := os.Stat(filepath.Join(res.Dir, "cases-junit.xml")); err != nil {
		t.Errorf("the second include's JUnit report: %v", err)
	}
	// Under the shell executor the jobs share one working directory (on
	// GitLab each has its own), so the other job's report may be there too.
	got := res.artefacts(t, "testctl-cases")
	if !slices.Contains(got, "testctl-report/cases.html") || slices.ContainsFunc(got, func(f string) bool { return !strings.HasPrefix(f, "testctl-report/") }) {
		t.Errorf("the second include archived %v, want testctl-report/cases.html and nothing outside testctl-report/", got)
	}
	if res.Jobs["testctl-bad"] != 2 || !strings.Contains(res.Log, "is never closed") {
		t.Errorf("unbalanced quotes: job exit %d, want 2 naming the quotes", res.Jobs["testctl-bad"])
	}
}

// A tampered archive is refused and nothing runs; a download server that
// never answers fails the job in bounded time, naming the URL.
func TestGitLabCITamperedArchiveAndSilentServer(t *testing.T) {
	needGitLabCILocal(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	rel.tamper()
	url := silentServer(t)
	silent := componentInputs(&release{URL: url}, sb, "pln-passing_sandbox")
	silent["job-name"] = "silent"
	start := time.Now()
	res := runGitLabCI(t, glPipeline{
		Includes: []map[string]string{componentInputs(rel, sb, "pln-passing_sandbox"), silent},
		Vars:     map[string]string{"TESTCTL_API_KEY": testKey, "TESTCTL_DOWNLOAD_STALL_TIMEOUT": "1", "TESTCTL_DOWNLOAD_CONNECT_TIMEOUT": "1", "TESTCTL_DOWNLOAD_RETRIES": "1"},
	})
	took := time.Since(start)
	if res.Jobs["testctl"] == 0 || !strings.Contains(res.Log, "does not match its SHA-256 in checksums.txt") {
		t.Errorf("tampered archive: job exit %d: want it refused for its checksum\n%s", res.Jobs["testctl"], res.Log)
	}
	if strings.Contains(res.Log, "Started run") {
		t.Error("testctl ran although its archive failed the check")
	}
	want := "error: testctl install: could not download " + url + "/v" + releaseVersion + "/testctl_" + releaseVersion + "_"
	if res.Jobs["silent"] == 0 || !strings.Contains(res.Log, want) || !strings.Contains(res.Log, "the download stalled, less than 1024 bytes a second for 1s (tried 2 times)") {
		t.Errorf("silent server: job exit %d: want the URL named and the download said to have stalled (%q)\n%s", res.Jobs["silent"], want, res.Log)
	}
	if took > time.Minute {
		t.Errorf("the pipeline took %v against a silent server", took)
	}
}

// A tag pipeline (CI_COMMIT_TAG, no branch) starts the run and passes.
func TestGitLabCITagPipeline(t *testing.T) {
	needGitLabCILocal(t)
	t.Parallel()
	rel, sb := newRelease(t), startSandbox(t)
	res := runGitLabCI(t, glPipeline{
		Includes: []map[string]string{componentInputs(rel, sb, "pln-passing_sandbox")},
		Jobs:     map[string]any{"later": laterGitLabJob("later")},
		Vars:     map[string]string{"TESTCTL_API_KEY": testKey, "CI_COMMIT_TAG": "v1.2.3", "CI_COMMIT_BRANCH": "", "CI_COMMIT_REF_NAME": "v1.2.3"},
		Setup: func(dir string) {
			git(t, dir, "tag", "v1.2.3")
			git(t, dir, "checkout", "-q", "--detach", "v1.2.3")
		},
	})
	if res.Code != 0 || res.Jobs["testctl"] != 0 {
		t.Fatalf("tag pipeline: gitlab-ci-local exit %d, jobs %v\n%s", res.Code, res.Jobs, res.Log)
	}
	later := readJSONFile(t, filepath.Join(res.Out, "later.json"))
	id := later["TESTCTL_RUN_SHORT_ID"]
	if id == "" {
		t.Fatalf("the later job read %v: want the run's id", later)
	}
	// The tag's name is the branch docs/ci.md says is sent.
	if run := listedRun(t, sb, id); run["trigger"] != "CODEHOST" || run["branch"] != "v1.2.3" {
		t.Errorf("the tag pipeline's run: trigger %v, branch %v; want CODEHOST, v1.2.3", run["trigger"], run["branch"])
	}
}
