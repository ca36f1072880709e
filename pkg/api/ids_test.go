package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/exitcode"
)

func TestCheckID(t *testing.T) {
	for _, ok := range []string{"r4m0gl", "r4m0gl-3", "runner-ci-42", "5a4db001-0000-4000-8000-000000000001",
		"c1;rm -rf ~", "r1$(touch pwned)", "...", ".a", "a..b", strings.Repeat("x", MaxIDLength)} {
		if err := CheckID("id", ok); err != nil {
			t.Errorf("CheckID(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "a/b", `..\x`, "a?b", "a#b", "%2e%2e", "a%2fb", "a\x00b", "a\nb", "a\x7fb",
		"a\u0085b", strings.Repeat("x", MaxIDLength+1)} {
		err := CheckID("run test case short id", bad)
		var ie *InvalidIDError
		if !errors.As(err, &ie) || exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "invalid run test case short id") {
			t.Errorf("CheckID(%q) = %v, want an InvalidIDError with exit 2", bad, err)
		}
	}
	long := CheckID("runner id", strings.Repeat("x", 10_000)).Error()
	if len(long) > 200 {
		t.Errorf("the message quotes a long id whole: %d bytes", len(long))
	}
}

// Every operation that puts an id in its path refuses one that would
// change the path, whoever gave it, and sends nothing: a service that
// names a test case ".." must not get testctl to read
// /v1/run-test-case/../logs with the key.
func TestOperationsRefuseUnusableIDs(t *testing.T) {
	c, rec, _ := newTestClient(t, status(http.StatusOK))
	c.LegacyBaseURL = c.BaseURL
	ctx := context.Background()
	const uuid = "5a4db001-0000-4000-8000-000000000001"
	for _, id := range []string{"", ".", "..", "../admin", `..\admin`, "%2e%2e", "r1?x=1", "r1#x", "r1\x1b[2J"} {
		for name, call := range map[string]func() error{
			"GetRun": func() error { _, err := c.GetRun(ctx, id, GetRunOptions{TestCases: "all"}); return err },
			"GetRunTestCaseLogs": func() error {
				_, err := c.GetRunTestCaseLogs(ctx, id, LogsQuery{Kind: LogKindNetwork})
				return err
			},
			"GetTunnelStatus":         func() error { _, err := c.GetTunnelStatus(ctx, id); return err },
			"RerunRun":                func() error { _, err := c.RerunRun(ctx, id, RerunRequest{}); return err },
			"GetLegacyRun":            func() error { _, err := c.GetLegacyRun(ctx, uuid, id); return err },
			"GetLegacyRun of project": func() error { _, err := c.GetLegacyRun(ctx, id, "r1"); return err },
		} {
			var ie *InvalidIDError
			if err := call(); !errors.As(err, &ie) || exitcode.Of(err) != exitcode.Usage {
				t.Errorf("%s(%q) = %v, want an InvalidIDError with exit 2", name, id, err)
			}
		}
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent for unusable ids, first %s", n, rec.requests[0].URL.RequestURI())
	}
	// An id the check lets through is still escaped.
	if _, err := c.GetRun(ctx, "r1 x;y", GetRunOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := rec.requests[0].URL.EscapedPath(); got != "/v1/run/r1%20x%3By" {
		t.Errorf("path %q", got)
	}
}
