package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

func TestStartAnswerMustNameAStartedRun(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"success": false, "message": "quota exceeded"}`, "the service did not start a run: quota exceeded"},
		{`{"success": false, "run": {"shortId": "r1"}}`, `"success": false`},
		{`{"success": true, "run": {"url": "https://x"}}`, "no run.shortId"},
		{`{"runs": [], "total": 0}`, "no run.shortId"},
	} {
		c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(tc.body)) })
		resp, err := c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"})
		if exitCodeOf(err) != 6 || !strings.Contains(err.Error(), tc.want) || resp != nil {
			t.Errorf("%s: got %+v, %v; want exit 6 with %q", tc.body, resp, err, tc.want)
		}
	}
}

func TestStartAnswerWithoutSuccessIsTakenByItsRun(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"run": {"shortId": "r1", "url": "https://x/runs/r1"}}`))
	})
	resp, err := c.StartRun(context.Background(), StartRunRequest{TestPlanShortID: "pln_x"})
	if err != nil || resp.Run.ShortID != "r1" {
		t.Fatalf("got %+v, %v", resp, err)
	}
}

func TestOrganizationKeyErrorNamesTheFlags(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"message":"projectShortId is required with an organization-scoped API key"}`))
	})
	_, err := c.ListRuns(context.Background(), ListRunsOptions{})
	if exitCodeOf(err) != 2 || !strings.Contains(err.Error(), "projectShortId is required") ||
		!strings.Contains(err.Error(), "--project (-p) or TESTCTL_PROJECT") {
		t.Errorf("got %v, want the service's words and testctl's flags, exit 2", err)
	}
}

func TestRerunAnswerMustNameAStartedRun(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"success": false, "message": "run r1 is still running"}`))
	})
	_, err := c.RerunRun(context.Background(), "r1", RerunRequest{})
	if exitCodeOf(err) != 6 || !strings.Contains(err.Error(), "POST /v1/run/r1: the service did not start a run: run r1 is still running") {
		t.Errorf("got %v, want exit 6 with the service's message", err)
	}
}
