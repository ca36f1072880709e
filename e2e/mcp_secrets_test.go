package e2e_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpcmd "github.com/testctl/testctl/cmd/mcp"
	"github.com/testctl/testctl/cmd/root"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/iostreams"
)

// TestMCPToolsNeverLeakTheKey: the tools of `testctl mcp`, with --debug's
// trace on, against a service that accepts the key, one that quotes it
// back in a 401 and one that quotes it in an HTML page: the key reaches no
// result (text or structured), no progress message and not the server's
// stderr.
func TestMCPToolsNeverLeakTheKey(t *testing.T) {
	for _, echo := range []string{"", "401", "html"} {
		t.Run("echo "+echo, func(t *testing.T) {
			e := cmdtest.New(t)
			rid := auditRunID(t, e)
			e.Setenv("TESTCTL_BASE_URL", keyProxy(t, e.Sandbox.BaseURL, echo))
			e.Setenv("TESTCTL_API_KEY", auditKey)
			e.Setenv("TESTCTL_DEBUG", "1")
			ios, _, _, errOut := iostreams.Test()
			srv := mcpcmd.NewServer(context.Background(), e.Factory(t, ios), root.Run, false)
			ct, st := mcp.NewInMemoryTransports()
			ss, err := srv.Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			var mu sync.Mutex
			var seen []string
			client := mcp.NewClient(&mcp.Implementation{Name: "audit", Version: "1"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					defer mu.Unlock()
					seen = append(seen, r.Params.Message)
				}})
			cs, err := client.Connect(context.Background(), ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for _, call := range []struct {
				tool string
				args map[string]any
			}{
				{"get_run", map[string]any{"run_id": rid, "issues": true}},
				{"run_report", map[string]any{"run_ids": []string{rid}}},
				{"wait_run", map[string]any{"run_ids": []string{rid}}},
				{"list_runs", map[string]any{"limit": 3}},
				{"list_test_cases", map[string]any{"limit": 3}},
				{"get_logs", map[string]any{"test_case_run": rid + "-1", "kind": "api-calls", "full": true}},
				{"tunnel_status", map[string]any{"runner_id": "runner-healthy"}},
				{"start_run", map[string]any{"plans": []string{"pln-passing_sandbox"}}},
				{"create_test_case", map[string]any{"app": "app_sandbox-web", "name": "Audit", "goal": "Open the page"}},
			} {
				p := &mcp.CallToolParams{Name: call.tool, Arguments: call.args}
				p.SetProgressToken(call.tool)
				res, err := cs.CallTool(context.Background(), p)
				if err != nil {
					t.Fatalf("%s: %v", call.tool, err)
				}
				b, _ := json.Marshal(res)
				mu.Lock()
				seen = append(seen, string(b))
				mu.Unlock()
			}
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, errOut.String())
			for _, s := range seen {
				if strings.Contains(s, auditKey) {
					t.Errorf("the key reached the agent or the log: %.2000s", s)
				}
			}
		})
	}
}
