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
	node, sdk := nodePackage{What: "the reference MCP client", Node: 20, Env: MCPSDKDirEnv,
		Install: "@modelcontextprotocol/sdk@1.32.2", File: "package.json"}.need(t)
	script, err := filepath.Abs(filepath.Join("testdata", "mcp-client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	bin := mustBinary(t)
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
