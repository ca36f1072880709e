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
	pattern := func(seed int64, write bool) string {
		var b strings.Builder
		for n := uint64(1); n <= 500; n++ {
			b.WriteString(faultFor(seed, n, 0.2, write) + ",")
		}
		return b.String()
	}
	if pattern(1, false) != pattern(1, false) || pattern(1, true) != pattern(1, true) {
		t.Error("same seed, different faults")
	}
	if pattern(1, false) == pattern(2, false) {
		t.Error("different seeds, same faults")
	}
	lost := 0
	for n := uint64(1); n < 1000; n++ {
		if faultFor(9, n, 0, true) != "" {
			t.Fatal("fault at rate 0")
		}
		if faultFor(9, n, 1, false) == "" {
			t.Fatal("no fault at rate 1")
		}
		// Whether a request fails does not depend on it being a write;
		// only a write may lose its answer.
		read, write := faultFor(9, n, 0.3, false), faultFor(9, n, 0.3, true)
		if (read == "") != (write == "") || strings.HasPrefix(read, lostPrefix) {
			t.Fatalf("request %d: read fault %q, write fault %q", n, read, write)
		}
		if strings.HasPrefix(write, lostPrefix) {
			lost++
		}
	}
	if lost == 0 {
		t.Error("no write lost its answer in 1000 requests at rate 0.3")
	}
}

// With NoLostAnswers a faulted request is not processed, so a retried
// start cannot start two runs; the stats route is never faulted so tests
// can count.
func TestFaultedRequestsAreNotProcessed(t *testing.T) {
	s, _ := newSandbox(t, Options{NoLostAnswers: true})
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

// postStart sends a write over a real connection, reporting the status
// (0 for a dropped connection).
func postStart(t *testing.T, srv *httptest.Server, path, body string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+ProjectKey)
	resp, err := srv.Client().Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Under --fault-rate, writes also get carried out and then lose their
// answer: every run or test case the sandbox created without telling the
// client is counted in LostAnswers, and the rest of the faults created
// nothing. A refused write is answered as it is.
func TestWritesLoseTheirAnswer(t *testing.T) {
	s, fake := newSandbox(t, Options{FaultRate: 1, Seed: 3, History: -1})
	srv := httptest.NewServer(s)
	defer srv.Close()
	const n = 60
	for i := 0; i < n; i++ {
		if code := postStart(t, srv, "/v1/run", `{"testPlanShortId":"pln-passing_sandbox"}`); code == 200 {
			t.Fatalf("start %d answered 200 at fault rate 1", i)
		}
	}
	st := s.Stats()
	lost := st.LostAnswers[LostAnswer500] + st.LostAnswers[LostAnswerDrop]
	if st.RunsStarted != lost || st.LostAnswers[LostAnswer500] == 0 || st.LostAnswers[LostAnswerDrop] == 0 {
		t.Errorf("%d runs created, lost answers %v", st.RunsStarted, st.LostAnswers)
	}
	if st.FaultsInjected != n {
		t.Errorf("%d faults injected for %d requests", st.FaultsInjected, n)
	}
	s.SetFaultRate(0)
	list := decode[api.RunList](t, send(t, s, "GET", "/v1/run", ProjectKey, nil), 200)
	if int(list.Total) != lost {
		t.Errorf("the list shows %d runs, %d answers were lost", list.Total, lost)
	}

	// Reruns and test case creations lose their answers too.
	advance(fake, 20)
	s.SetFaultRate(1)
	orig := list.Runs[0].ShortID
	for i := 0; i < n; i++ {
		postStart(t, srv, "/v1/run/"+orig, `{}`)
		postStart(t, srv, "/v1/test-cases", `{"name":"n","goal":"g","applicationShortId":"app_sandbox-web"}`)
	}
	after := s.Stats()
	lostNow := after.LostAnswers[LostAnswer500] + after.LostAnswers[LostAnswerDrop]
	if after.Reruns == 0 || after.TestCasesCreated == 0 || lostNow != lost+after.Reruns+after.TestCasesCreated {
		t.Errorf("%d reruns and %d test cases created, %d answers lost", after.Reruns, after.TestCasesCreated, lostNow-lost)
	}

	// A write the sandbox refuses changed nothing: its 400 goes out.
	faultsBefore := s.Stats().FaultsInjected
	for i := 0; i < 20; i++ {
		if code := postStart(t, srv, "/v1/run", `{"testPlanShortId":"pln-nope_sandbox"}`); code == 200 {
			t.Fatal("an unknown plan started")
		}
	}
	if st := s.Stats(); st.RunsStarted != after.RunsStarted || st.FaultsInjected-faultsBefore >= 20 {
		t.Errorf("refused starts: %d runs, %d faults", st.RunsStarted-after.RunsStarted, st.FaultsInjected-faultsBefore)
	}
}

func TestNoLostAnswers(t *testing.T) {
	s, _ := newSandbox(t, Options{FaultRate: 1, NoLostAnswers: true})
	srv := httptest.NewServer(s)
	defer srv.Close()
	for i := 0; i < 50; i++ {
		postStart(t, srv, "/v1/test-cases", `{"name":"n","goal":"g","applicationShortId":"app_sandbox-web"}`)
	}
	if st := s.Stats(); st.TestCasesCreated != 0 || len(st.LostAnswers) != 0 || st.FaultsInjected != 50 {
		t.Errorf("stats %+v", st)
	}
}

// LoseNextAnswers scripts exactly which writes lose their answer.
func TestLoseNextAnswers(t *testing.T) {
	s, _ := newSandbox(t, Options{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	s.LoseNextAnswers(1, LostAnswerDrop)
	s.LoseNextAnswers(1, LostAnswer500)
	body := `{"testPlanShortId":"pln-passing_sandbox"}`
	if code := postStart(t, srv, "/v1/run", `{"testPlanShortId":"pln-nope_sandbox"}`); code != 404 {
		t.Errorf("a refused start answered %d", code)
	}
	if s.Stats().RunsStarted != 0 || len(s.Stats().LostAnswers) != 0 {
		t.Errorf("a refused start used the scripted loss: %+v", s.Stats())
	}
	for i, want := range []int{0, 500, 200} {
		if code := postStart(t, srv, "/v1/run", body); code != want {
			t.Errorf("start %d answered %d, want %d", i, code, want)
		}
	}
	if st := s.Stats(); st.RunsStarted != 3 || st.LostAnswers[LostAnswerDrop] != 1 || st.LostAnswers[LostAnswer500] != 1 {
		t.Errorf("stats %+v", st)
	}
}

// Options.VisibilityDelay hides a new run for a while, as the service may.
func TestVisibilityDelay(t *testing.T) {
	s, fake := newSandbox(t, Options{VisibilityDelay: 10 * time.Second, Speed: 4, History: -1})
	id := startPlan(t, s, PlanPassing).Run.ShortID
	advance(fake, 9.5)
	wantError(t, send(t, s, "GET", "/v1/run/"+id, ProjectKey, nil), 404, id)
	wantError(t, send(t, s, "POST", "/v1/run/"+id, ProjectKey, nil), 404, id)
	if list := decode[api.RunList](t, send(t, s, "GET", "/v1/run", ProjectKey, nil), 200); list.Total != 0 {
		t.Errorf("a run listed before the delay: %+v", list.Runs)
	}
	advance(fake, 0.5)
	// The delay is on the clock, not sandbox time: at speed 4 the run has
	// finished by the time it shows.
	if d := getRun(t, s, id, ""); d.Status != api.StatusCompleted {
		t.Errorf("after the delay: %s", d.Status)
	}
	if list := decode[api.RunList](t, send(t, s, "GET", "/v1/run", ProjectKey, nil), 200); list.Total != 1 || list.Runs[0].ShortID != id {
		t.Errorf("list after the delay: %+v", list.Runs)
	}
}
