package evidence_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
	"github.com/testctl/testctl/pkg/evidence"
	"github.com/testctl/testctl/pkg/sandbox"
)

// tenFailures serves a sandbox with a finished run of ten failed test
// cases (Options.FailingTestCases), answering after latency, and returns
// a client, the run and the targets a report of it would gather.
func tenFailures(b *testing.B, latency time.Duration) (*api.Client, string, []evidence.Target) {
	b.Helper()
	fake := clock.NewFake(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC))
	srv := httptest.NewServer(sandbox.New(sandbox.Options{Clock: fake, FailingTestCases: 10, Latency: latency}))
	b.Cleanup(srv.Close)
	client := &api.Client{BaseURL: srv.URL, APIKey: sandbox.ProjectKey, Clock: fake}
	ctx := context.Background()
	started, err := client.StartRun(ctx, api.StartRunRequest{TestPlanShortID: sandbox.PlanRegressions})
	if err != nil {
		b.Fatal(err)
	}
	fake.Advance(time.Minute)
	run, err := client.GetRun(ctx, started.Run.ShortID, api.GetRunOptions{TestCases: "failed"})
	if err != nil || len(run.RunTestCases) != 10 {
		b.Fatalf("%v: %d failed", err, len(run.RunTestCases))
	}
	var targets []evidence.Target
	for _, tc := range run.RunTestCases {
		targets = append(targets, evidence.TargetOf(run.ShortID, "Regressions", tc))
	}
	return client, run.ShortID, targets
}

// The cost evidence adds to a report of a run with ten failed test cases
// (31 requests, four at a time), beside the one run get the verdict needs,
// with no latency and with 20 ms per answer.
func BenchmarkEvidenceOfTenFailures(b *testing.B) {
	for _, latency := range []time.Duration{0, 20 * time.Millisecond} {
		b.Run(fmt.Sprintf("run-get/latency=%s", latency), func(b *testing.B) {
			client, run, _ := tenFailures(b, latency)
			for b.Loop() {
				if _, err := client.GetRun(context.Background(), run, api.GetRunOptions{TestCases: "all"}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("gather/latency=%s", latency), func(b *testing.B) {
			client, _, targets := tenFailures(b, latency)
			for b.Loop() {
				for _, c := range evidence.Gather(context.Background(), client, targets, evidence.Options{}) {
					if c.Network.Unavailable != "" || len(c.Network.Entries) == 0 {
						b.Fatalf("%+v", c.Network)
					}
				}
			}
		})
	}
}
