package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// The evidence survives a flaky network as the polls do: the first three
// reads of a network log lose their connection, and the declined card's
// story still tells its POST /api/payments 502, every part read.
func TestEvidenceReadsSurviveDroppedConnections(t *testing.T) {
	e := cmdtest.New(t)
	id := e.StartRun(t, sandbox.PlanFailing)
	var dropped atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/logs") && r.URL.Query().Get("kind") == "network" && dropped.Add(1) <= 3 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		e.Sandbox.Server.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)
	r := e.Run("run", "wait", id).Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "Pay with a declined card", "POST /api/payments 502")
	if strings.Contains(r.Stderr, "not available") {
		t.Errorf("a part of the evidence is missing:\n%s", r.Stderr)
	}
	if n := dropped.Load(); n <= 3 {
		t.Errorf("%d network logs asked for, want the three dropped and then the two read", n)
	}
}
