package e2e_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpcmd "github.com/testctl/testctl/cmd/mcp"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/iostreams"
	"github.com/testctl/testctl/pkg/sandbox"
)

// MCPExtAppsDirEnv names the directory of the MCP Apps SDK
// (@modelcontextprotocol/ext-apps 2.0.4), which .ci/run installs.
const MCPExtAppsDirEnv = "MCP_EXT_APPS_DIR"

// TestMCPAppRunReport: run_report names its MCP App (_meta.ui.resourceUri),
// the app's page is a resource, and the host side of the bridge
// (AppBridge of @modelcontextprotocol/ext-apps, in Node) hands it the
// tool's result: it renders the verdict, the run and its test cases with
// the story of a failed one, service text as text (a test case named as
// markup makes no element). Without Node 22 or the package it skips; under
// CI=true it fails.
func TestMCPAppRunReport(t *testing.T) {
	node, apps := nodePackage{What: "the MCP Apps host", Node: 22, Env: MCPExtAppsDirEnv,
		Install: "@modelcontextprotocol/ext-apps@2.0.4", File: filepath.Join("dist", "src", "app-bridge.js")}.need(t)

	e := cmdtest.New(t)
	ios, _, _, _ := iostreams.Test()
	srv := mcpcmd.NewServer(context.Background(), e.Factory(t, ios), root.Run, true)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "app-host", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uri string
	for _, tool := range tools.Tools {
		if tool.Name == "run_report" {
			ui, _ := tool.Meta["ui"].(map[string]any)
			uri, _ = ui["resourceUri"].(string)
		}
	}
	if !strings.HasPrefix(uri, "ui://") {
		t.Fatalf("run_report names no app: _meta.ui.resourceUri %q", uri)
	}
	page, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(page.Contents) != 1 || page.Contents[0].MIMEType != "text/html;profile=mcp-app" {
		t.Fatalf("reading %s: %v %+v", uri, err, page)
	}

	id := e.StartRun(t, sandbox.PlanFailing)
	args := map[string]any{"run_ids": []string{id}}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait_run", Arguments: args}); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_report", Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	// A test case's name as markup: the app must show it as text.
	raw, _ := json.Marshal(res)
	var result map[string]any
	_ = json.Unmarshal(raw, &result)
	sc, _ := result["structuredContent"].(map[string]any)
	run, _ := sc["data"].(map[string]any)
	cases, _ := run["runTestCases"].([]any)
	if len(cases) == 0 {
		t.Fatalf("run_report's result has no test cases: %s", raw)
	}
	hostile := `<img src=x onerror="alert(1)">Log in`
	cases[0].(map[string]any)["name"] = hostile

	dir := t.TempDir()
	htmlPath, resultPath := filepath.Join(dir, "app.html"), filepath.Join(dir, "result.json")
	doc, _ := json.Marshal(map[string]any{"arguments": args, "result": result})
	if err := os.WriteFile(htmlPath, []byte(page.Contents[0].Text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(resultPath, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "mcp-app-host.mjs"))
	runCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(runCtx, node, script, htmlPath, resultPath)
	cmd.Env = append(os.Environ(), MCPExtAppsDirEnv+"="+apps)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the host: %v\n%s\n%s", err, out, stderrOf(err))
	}
	var shown struct {
		Text string   `json:"text"`
		Tags []string `json:"tags"`
	}
	if err := json.Unmarshal(out, &shown); err != nil {
		t.Fatalf("the host printed %q: %v", out, err)
	}
	var failedStory string
	for _, c := range cases {
		if m := c.(map[string]any); m["result"] == "FAILED" {
			failedStory, _ = m["evaluationThought"].(string)
		}
	}
	t.Logf("the app shows:\n%s", shown.Text)
	if failedStory == "" {
		t.Fatal("the failing plan's run has no failed test case with a story")
	}
	for _, want := range []string{"Verdict: failed (exit code 1)", "Run " + id, "COMPLETED · FAILED", hostile, failedStory} {
		if !strings.Contains(shown.Text, want) {
			t.Errorf("the app does not show %q:\n%s", want, shown.Text)
		}
	}
	for _, tag := range shown.Tags {
		if tag == "img" || tag == "script" {
			t.Errorf("service text made a <%s> element", tag)
		}
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
