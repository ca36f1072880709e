package baseline

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

// server is a service whose run list ignores its filters (their names are
// not published): the lookup must check every listed run itself.
type server struct {
	mu       sync.Mutex
	lists    []string // the queries of GET /v1/run
	runs     []api.RunSummary
	getFails bool
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.URL.Path == "/v1/run" {
		s.lists = append(s.lists, r.URL.RawQuery)
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		page := []api.RunSummary{}
		if offset < len(s.runs) {
			page = s.runs[offset:min(len(s.runs), offset+limit)]
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"runs": page, "total": len(s.runs), "limit": limit, "offset": offset})
		return
	}
	if s.getFails {
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	res := "FAILED"
	_ = json.NewEncoder(w).Encode(api.RunDetail{ShortID: r.URL.Path[len("/v1/run/"):], Status: api.StatusCompleted, Result: &res,
		RunTestCases: []api.RunTestCase{{Name: "Pay", Status: api.StatusCompleted, Result: "FAILED"}}})
}

func summary(id, status, branch, plan string) api.RunSummary {
	return api.RunSummary{ShortID: id, Status: status, Branch: &branch, TestPlanShortID: &plan}
}

func lookup(t *testing.T, s *server, targets ...Target) Result {
	t.Helper()
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c := &api.Client{BaseURL: srv.URL, HTTPClient: srv.Client(), APIKey: "k", AllowInsecureHTTP: true}
	res, ok := Start(context.Background(), c.WithRetries(0), "main", targets).Result(context.Background())
	if !ok {
		t.Fatal("the lookup did not end")
	}
	return res
}

func TestFindsTheNewestCompletedRunOfThePlanOnTheBranch(t *testing.T) {
	s := &server{runs: []api.RunSummary{
		summary("r9", api.StatusCompleted, "feature", "p"), // the run waited on
		summary("r8", api.StatusRunning, "main", "p"),      // not ended
		summary("r7", api.StatusCompleted, "develop", "p"), // another branch
		summary("r6", api.StatusCompleted, "main", "q"),    // another plan
		summary("r5", api.StatusError, "main", "p"),        // did not end COMPLETED
		summary("r4", api.StatusCompleted, "main", "p"),    // the baseline
		summary("r3", api.StatusCompleted, "main", "p"),
	}}
	res := lookup(t, s, Target{RunShortID: "r9", PlanShortID: "p"})
	b := res.Baselines["p"]
	if b == nil || b.RunShortID != "r4" || b.Err != nil || len(b.Cases) != 1 || b.Cases[0].Name != "Pay" {
		t.Fatalf("baseline: %+v", b)
	}
	if q := s.lists[0]; !strings.Contains(q, "branch=main") || !strings.Contains(q, "testPlanShortId=p") {
		t.Errorf("the filters are sent: %s", q)
	}
}

func TestNoRunWithinTheBound(t *testing.T) {
	s := &server{}
	for i := range MaxPages*PageSize + 10 {
		s.runs = append(s.runs, summary(fmt.Sprintf("r%d", i), api.StatusCompleted, "develop", "p"))
	}
	s.runs = append(s.runs, summary("old", api.StatusCompleted, "main", "p")) // beyond the bound
	res := lookup(t, s, Target{RunShortID: "x", PlanShortID: "p"})
	if b := res.Baselines["p"]; b == nil || b.RunShortID != "" || b.Err != nil {
		t.Errorf("baseline: %+v", b)
	}
	if len(s.lists) != MaxPages {
		t.Errorf("%d pages read, the bound is %d", len(s.lists), MaxPages)
	}
}

func TestUnreadableBaselineRun(t *testing.T) {
	s := &server{getFails: true, runs: []api.RunSummary{summary("r4", api.StatusCompleted, "main", "p")}}
	b := lookup(t, s, Target{RunShortID: "x", PlanShortID: "p"}).Baselines["p"]
	if b == nil || b.RunShortID != "r4" || b.Err == nil || b.Found() {
		t.Errorf("baseline: %+v", b)
	}
}

// run wait RUNID knows no plan: the run list says it.
func TestFindsThePlanOfARunWaitedOnById(t *testing.T) {
	s := &server{runs: []api.RunSummary{summary("r9", api.StatusRunning, "feature", "p"), summary("r4", api.StatusCompleted, "main", "p")}}
	res := lookup(t, s, Target{RunShortID: "r9"})
	if res.PlanOf["r9"] != "p" || res.Baselines["p"] == nil || res.Baselines["p"].RunShortID != "r4" {
		t.Errorf("result: %+v", res)
	}
}
