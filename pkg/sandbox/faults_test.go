package sandbox

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
)

func TestFaultRateOverHTTP(t *testing.T) {
	s := New(Options{FaultRate: 0.3, Seed: 42})
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := srv.Client()
	const n = 1000
	seen := map[string]int{}
	for i := 0; i < n; i++ {
		resp, err := client.Get(srv.URL + "/v1/outbound-ips")
		if err != nil {
			seen["drop"]++
			continue
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case 200:
			seen["ok"]++
		case 429:
			seen["429"]++
			if resp.Header.Get("Retry-After") != "1" {
				t.Errorf("429 without Retry-After: 1")
			}
		default:
			seen[http.StatusText(resp.StatusCode)]++
			if resp.StatusCode < 500 {
				t.Errorf("unexpected status %d", resp.StatusCode)
			}
		}
	}
	st := s.Stats()
	failed := n - seen["ok"]
	if math.Abs(float64(failed)/n-0.3) > 0.05 {
		t.Errorf("failed %d of %d, want about 30%%", failed, n)
	}
	if st.FaultsInjected != failed || st.Requests["GET /v1/outbound-ips"] != n {
		t.Errorf("stats %+v, observed %v", st, seen)
	}
	for _, kind := range faultKinds {
		if st.Faults[kind] == 0 {
			t.Errorf("no %s fault in %d requests: %v", kind, n, st.Faults)
		}
	}
	if seen["drop"] != st.Faults["drop"] {
		t.Errorf("dropped %d, stats say %d", seen["drop"], st.Faults["drop"])
	}
}

func TestFaultsAreDeterministic(t *testing.T) {
	pattern := func(seed int64) string {
		var b strings.Builder
		for n := uint64(1); n <= 500; n++ {
			b.WriteString(faultFor(seed, n, 0.2) + ",")
		}
		return b.String()
	}
	if pattern(1) != pattern(1) {
		t.Error("same seed, different faults")
	}
	if pattern(1) == pattern(2) {
		t.Error("different seeds, same faults")
	}
	for n := uint64(1); n < 1000; n++ {
		if faultFor(9, n, 0) != "" {
			t.Fatal("fault at rate 0")
		}
		if faultFor(9, n, 1) == "" {
			t.Fatal("no fault at rate 1")
		}
	}
}

// A faulted request is not processed, so a retried start cannot start two
// runs; the stats route is never faulted so tests can count.
func TestFaultedRequestsAreNotProcessed(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	startPlan(t, s, PlanPassing)
	s.SetFaultRate(1)
	srv := httptest.NewServer(s)
	defer srv.Close()
	for i := 0; i < 20; i++ {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/run", strings.NewReader(`{"testPlanShortId":"pln-passing_sandbox"}`))
		req.Header.Set("Authorization", "Bearer "+ProjectKey)
		if resp, err := srv.Client().Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				t.Fatal("request succeeded at fault rate 1")
			}
		}
	}
	resp, err := srv.Client().Get(srv.URL + "/_sandbox/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil || resp.StatusCode != 200 {
		t.Fatalf("stats: %d %v", resp.StatusCode, err)
	}
	if st.RunsStarted != 1 || st.Requests["POST /v1/run"] != 21 || st.FaultsInjected != 20 {
		t.Errorf("stats %+v", st)
	}
	s.SetFaultRate(0)
	startPlan(t, s, PlanPassing)
	if s.Stats().RunsStarted != 2 {
		t.Error("turning faults off did not restore service")
	}
	s.SetFaultRate(7)
	if s.FaultRate() != 1 {
		t.Errorf("rate not clamped: %v", s.FaultRate())
	}
}

func TestLatency(t *testing.T) {
	s := New(Options{Latency: 80 * time.Millisecond})
	began := time.Now()
	decode[map[string]any](t, send(t, s, "GET", "/v1/outbound-ips", "", nil), 200)
	if d := time.Since(began); d < 80*time.Millisecond {
		t.Errorf("answered after %v", d)
	}
	// A cancelled request does not wait out the delay, and the stats route is
	// never delayed. The delay is long so that the bound below stays far from
	// any scheduling noise on a loaded machine.
	slow := New(Options{Latency: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest("GET", "/v1/outbound-ips", nil).WithContext(ctx)
	began = time.Now()
	rec := serve(slow, r)
	if d := time.Since(began); d > 20*time.Second || rec.Body.Len() != 0 {
		t.Errorf("cancelled request took %v and answered %q", d, rec.Body)
	}
	began = time.Now()
	send(t, slow, "GET", "/_sandbox/stats", "", nil)
	if d := time.Since(began); d > 20*time.Second {
		t.Errorf("stats delayed by %v", d)
	}
}

func TestConcurrentRequests(t *testing.T) {
	s, fake := newSandbox(t, Options{History: 1000})
	var wg sync.WaitGroup
	ids := make(chan string, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			plans := []string{PlanPassing, PlanFailing, PlanSlow}
			body := `{"testPlanShortId":"` + plans[i%3] + `"}`
			rec := serve(s, jsonRequest("POST", "/v1/run", body))
			var resp api.StartRunResponse
			_ = json.Unmarshal(rec.Body.Bytes(), &resp)
			ids <- resp.Run.ShortID
			fake.Advance(100 * time.Millisecond)
			for _, path := range []string{"/v1/run?limit=100", "/v1/run/" + resp.Run.ShortID + "?testCases=all&issues=true",
				"/v1/test-cases", "/v1/run-test-case/" + resp.Run.ShortID + "-1/logs?kind=network"} {
				if rec := serve(s, jsonRequest("GET", path, "")); rec.Code != 200 {
					t.Errorf("%s: %d", path, rec.Code)
				}
			}
			serve(s, jsonRequest("POST", "/v1/test-cases", `{"name":"n","goal":"g","applicationShortId":"app_sandbox-web"}`))
		}(i)
	}
	wg.Wait()
	close(ids)
	unique := map[string]bool{}
	for id := range ids {
		unique[id] = true
	}
	if len(unique) != 40 || s.Stats().RunsStarted != 40 || s.Stats().TestCasesCreated != 40 {
		t.Errorf("%d unique ids, stats %+v", len(unique), s.Stats())
	}
}

func jsonRequest(method, target, body string) *http.Request {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Header.Set("Authorization", "Bearer "+ProjectKey)
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	return r
}
