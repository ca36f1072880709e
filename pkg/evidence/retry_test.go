package evidence_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/sandbox"
)

// failing fails the first n requests to path (and counts every request to
// it) the way kind says, a 502 or a dropped connection, and hands the
// others to next.
type failing struct {
	next        http.Handler
	path, query string
	kind        string
	n, seen     atomic.Int32
}

func (f *failing) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == f.path && strings.Contains(r.URL.RawQuery, f.query) && f.seen.Add(1) <= f.n.Load() {
		if f.kind == "drop" {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		http.Error(w, `{"message":"bad gateway"}`, http.StatusBadGateway)
		return
	}
	f.next.ServeHTTP(w, r)
}

// A read of the evidence that fails for a passing reason is tried again,
// as polls are: the declined card's network log, failing three times (a
// 502, a dropped connection), still tells its POST /api/payments 502. A
// fourth failure is one too many: the part says why it is missing, and
// nothing is asked again. (How often a dropped connection was asked for is
// not counted: Go's transport may try a GET again on a connection it had
// reused, before the client sees the failure.)
func TestATransientFailureOfAReadIsRetried(t *testing.T) {
	for _, tc := range []struct {
		kind         string
		fails, tries int32
		want         string
	}{
		{"502", 0, 1, "POST /api/payments 502"},
		{"502", 3, 4, "POST /api/payments 502"},
		{"drop", 3, 0, "POST /api/payments 502"},
		{"502", 4, 4, "network: not available: HTTP 502"},
	} {
		fake := clock.NewFake(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC))
		faults := &failing{next: sandbox.New(sandbox.Options{Clock: fake}), query: "kind=network", kind: tc.kind}
		_, client := serve(t, faults)
		ctx := context.Background()
		started, err := client.StartRun(ctx, api.StartRunRequest{TestPlanShortID: sandbox.PlanFailing})
		if err != nil {
			t.Fatal(err)
		}
		fake.Advance(time.Minute)
		detail, err := client.GetRun(ctx, started.Run.ShortID, api.GetRunOptions{TestCases: "failed"})
		if err != nil {
			t.Fatal(err)
		}
		var card evidence.Target
		for _, c := range detail.RunTestCases {
			if c.Name == "Pay with a declined card" {
				card = evidence.TargetOf(detail.ShortID, "Checkout regression", c)
			}
		}
		faults.path = "/v1/run-test-case/" + card.CaseShortID + "/logs"
		faults.n.Store(tc.fails)
		cases := gather(ctx, client, []evidence.Target{card}, evidence.Options{}, nil)
		text := strings.Join(evidence.Lines(cases[0]), "\n")
		if !strings.Contains(text, tc.want) {
			t.Errorf("%d × %s: the story lacks %q:\n%s", tc.fails, tc.kind, tc.want, text)
		}
		if n := faults.seen.Load(); tc.tries > 0 && n != tc.tries {
			t.Errorf("%d × %s: the network log was asked for %d times, want %d", tc.fails, tc.kind, n, tc.tries)
		}
	}
}
