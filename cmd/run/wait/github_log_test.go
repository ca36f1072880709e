package wait_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"

	"github.com/testctl/testctl/internal/cmdtest"
)

// Service text holding workflow commands is shown in the log but obeyed
// by no runner; testctl's own annotations all take effect.
func TestServiceTextRunsNoWorkflowCommand(t *testing.T) {
	e := cmdtest.New(t)
	hostile := func(i int, result string) map[string]any {
		return map[string]any{"shortId": "r1-" + string(rune('0'+i)), "name": "##[add-mask]hunter2",
			"status": "COMPLETED", "result": result, "resultTitle": "::error::forged by the page, then ##[error]mid-line",
			"evaluationThought": "it said:\n  ::stop-commands::x\n::add-mask::secret\n##[error]forged too\r::add-mask::after a return" +
				"\nand ##[set-output name=run_result]PASSED"}
	}
	detail, _ := json.Marshal(map[string]any{"id": "x", "shortId": "r1", "status": "COMPLETED", "result": "FAILED",
		"runTestCases": []any{hostile(0, "FAILED"), hostile(1, "PASSED"), hostile(2, "FAILED")}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/run" {
			_, _ = w.Write([]byte(`{"runs":[],"total":0,"limit":20,"offset":0}`))
			return
		}
		_, _ = w.Write(detail)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	e.GitHubActions()
	r := e.Run("run", "wait", "r1").Expect(t, 1)

	cmdtest.Contains(t, "stderr", r.Stderr, "##[add-mask]hunter2", "::stop-commands::x", "##[error]forged too")
	cmdtest.Contains(t, "stdout", r.Stdout, "##[add-mask]hunter2")
	ran := cmdtest.RunnerCommands(unicode.IsSpace, r.Stderr, r.Stdout)
	if len(ran) != 2 {
		t.Fatalf("%d commands took effect, want testctl's 2 annotations:\n%s", len(ran), strings.Join(ran, "\n"))
	}
	for _, c := range ran {
		if !strings.HasPrefix(c, "::error title=testctl run r1%3A ##[add-mask]hunter2::FAILED") {
			t.Errorf("a command that is not testctl's annotation took effect: %s", c)
		}
	}

	// Off GitHub Actions nothing changes: no block markers.
	e.Setenv("GITHUB_ACTIONS", "")
	r = e.Run("run", "wait", "r1").Expect(t, 1)
	if strings.Contains(r.Output(), "::stop-commands::testctl-") {
		t.Errorf("guarded off GitHub Actions:\n%s", r.Output())
	}
}
