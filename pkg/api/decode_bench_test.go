package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Decoding benchmarks for the hot paths of issue 8: `run list --all`
// decodes one 100-run page per request, and `run get` / `run wait` decode a
// run detail whose size grows with its test cases. docs/benchmarks.md
// records the figures.

func benchRunList(n int) []byte {
	str := func(s string) *string { return &s }
	page := RunList{Total: 100_000, Limit: int32(n)}
	for i := range n {
		page.Runs = append(page.Runs, RunSummary{
			ShortID: fmt.Sprintf("r%05d", i), Status: StatusCompleted, Result: str("PASSED"), Trigger: TriggerCodehost,
			Branch: str("feature/checkout-v2"), CommitHash: str(strings.Repeat("0a1b2c3d", 5)),
			TestPlanShortID: str("pln-checkout_a1b2"), StartedAt: str("2026-11-21T09:00:01Z"),
			FinishedAt: str("2026-11-21T09:00:11Z"), CreatedAt: "2026-11-21T09:00:00Z",
			URL: "https://app.example.com/runs/" + fmt.Sprintf("r%05d", i), ApplicationShortIDs: []string{"app_web"},
			PassedCount: 4, FailedCount: 1, TotalCount: 5,
		})
	}
	b, _ := json.MarshalIndent(page, "", "  ")
	return b
}

func benchRunDetail(cases int) []byte {
	examples := "Coupon SPRING-2019 expired on 2019-06-30."
	run := RunDetail{ID: "run_243b619b6f37e4c611baa81e", ShortID: "hulq0y", Status: StatusRunning}
	for i := range cases {
		run.RunTestCases = append(run.RunTestCases, RunTestCase{
			ID: fmt.Sprintf("5a4db001-0000-4000-8000-%012d", i), ShortID: fmt.Sprintf("hulq0y-%d", i),
			Name: fmt.Sprintf("Check out with a saved card, case %d", i), Status: StatusCompleted, Result: "PASSED",
			ResultTitle:       "Goal reached: the order confirmation page shows the order number",
			EvaluationThought: strings.Repeat("The recorded steps reached the goal and nothing contradicted the expected result. ", 4),
			PromptGoal:        "Add an item to the cart, check out with the saved card and reach the confirmation page",
			PromptExamples:    &examples,
		})
	}
	b, _ := json.MarshalIndent(run, "", "  ")
	return b
}

func benchmarkDecode[T any](b *testing.B, body []byte) {
	resp := &Response{StatusCode: http.StatusOK, Body: body}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var out T
		if err := decode(http.MethodGet, "/v1/run", resp, &out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRunList100(b *testing.B)    { benchmarkDecode[RunList](b, benchRunList(100)) }
func BenchmarkDecodeRunDetail20(b *testing.B)   { benchmarkDecode[RunDetail](b, benchRunDetail(20)) }
func BenchmarkDecodeRunDetail1000(b *testing.B) { benchmarkDecode[RunDetail](b, benchRunDetail(1000)) }

// BenchmarkGetRunLoopback is one `run get` request as the client makes it
// (headers, retry policy, body limit, decoding) against a loopback server
// that answers at once: the client's own share of a request.
func BenchmarkGetRunLoopback(b *testing.B) {
	body := benchRunDetail(20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, APIKey: "sandbox-project-key", HTTPClient: srv.Client(), Retry: DefaultRetryPolicy}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.GetRun(ctx, "hulq0y", GetRunOptions{TestCases: "all"}); err != nil {
			b.Fatal(err)
		}
	}
}
