package e2e_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// MCPConformanceDirEnv names the directory of the MCP conformance suite
// (@modelcontextprotocol/conformance 0.1.16), which .ci/run installs.
const MCPConformanceDirEnv = "MCP_CONFORMANCE_DIR"

// TestMCPConformance runs the MCP conformance suite's server scenarios
// against `testctl --sandbox mcp --http` built from this tree. Every
// scenario passes but those that call the reference server's own fixtures,
// listed with why in testdata/mcp-conformance-expected-failures.yml; the
// suite fails on an unexpected failure and on a listed one that passes.
// Without Node 22 or the suite it skips, saying so; under CI=true it fails.
func TestMCPConformance(t *testing.T) {
	node, suite := nodePackage{What: "the MCP conformance suite", Node: 22, Env: MCPConformanceDirEnv,
		Install: "@modelcontextprotocol/conformance@0.1.16", File: filepath.Join("dist", "index.js")}.need(t)
	expected, err := filepath.Abs(filepath.Join("testdata", "mcp-conformance-expected-failures.yml"))
	if err != nil {
		t.Fatal(err)
	}
	bin := mustBinary(t)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	server := exec.CommandContext(ctx, bin, "--sandbox", "mcp", "--http", "127.0.0.1:0")
	server.Dir = dir
	server.Env = append(os.Environ(), "TESTCTL_CONFIG="+filepath.Join(dir, "config.yaml"),
		"TESTCTL_API_KEY=", "TESTCTL_PROFILE=", "TESTCTL_BASE_URL=")
	stderr, err := server.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = server.Process.Signal(os.Interrupt)
		_ = server.Wait()
	})
	url := serverURL(t, stderr)

	suiteCmd := exec.CommandContext(ctx, node, filepath.Join(suite, "dist", "index.js"), "server",
		"--url", url, "--expected-failures", expected, "--output-dir", filepath.Join(dir, "results"))
	suiteCmd.Dir = dir
	out, err := suiteCmd.CombinedOutput()
	t.Logf("%s", summary(out))
	if err != nil {
		t.Fatalf("the conformance suite failed (%v): an unexpected failure, or an expected one that now passes (remove it from %s)",
			err, filepath.Base(expected))
	}
}

// serverURL reads the address `testctl mcp --http` serves at from its
// stderr, and drains the rest.
func serverURL(t *testing.T, stderr interface{ Read([]byte) (int, error) }) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`at (http://\S+/mcp)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case url := <-found:
		return url
	case <-time.After(30 * time.Second):
		t.Fatal("testctl mcp --http did not say where it serves")
		return ""
	}
}

// summary is the suite's summary, its verdicts of the scenarios.
func summary(out []byte) string {
	s := string(out)
	if i := strings.Index(s, "=== SUMMARY ==="); i >= 0 {
		return s[i:]
	}
	return s
}
