package report_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testctl/testctl/cmd/run/report"
	"github.com/testctl/testctl/internal/cmdtest"
	"github.com/testctl/testctl/pkg/sandbox"
)

// A service whose read of the run with its issues never answers holds the
// report up for the issues budget only, not the request timeout: the run
// is then read without its issues, the evidence asks for them apart, and
// the report gives the run's verdict.
func TestReportIsNotHeldUpByAStalledIssuesRead(t *testing.T) {
	report.SetIssuesBudget(t, 100*time.Millisecond)
	e := cmdtest.New(t)
	r := e.Run("run", "start", "--plan", sandbox.PlanFailing, "-q").Expect(t, 0)
	id := strings.TrimSpace(r.Stdout)
	e.Clock.Advance(2 * time.Minute)

	release := make(chan struct{})
	var once sync.Once
	unstall := func() { once.Do(func() { close(release) }) }
	t.Cleanup(unstall) // before the server closes: cleanups run last first
	var mu sync.Mutex
	var reads []string // the reads of the run, in the order they came
	target, _ := url.Parse(e.Getenv("TESTCTL_BASE_URL"))
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.URL.Path == "/v1/run/"+id {
			mu.Lock()
			reads = append(reads, "testCases="+q.Get("testCases")+" issues="+q.Get("issues"))
			mu.Unlock()
			if q.Get("testCases") == "all" && q.Get("issues") == "true" {
				select { // never answers, until the test ends
				case <-release:
				case <-r.Context().Done():
				}
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	e.Setenv("TESTCTL_BASE_URL", srv.URL)

	done := make(chan cmdtest.Result, 1)
	go func() { done <- e.Run("run", "report", id, "--http-timeout", "5m") }()
	// Generous: the budget is 100 ms here; before it, the report waited
	// for the request timeout, 5 minutes here.
	const bound = 20 * time.Second
	select {
	case r = <-done:
	case <-time.After(bound):
		unstall()
		<-done
		t.Fatalf("run report still waited on the stalled read of the run with its issues after %s", bound)
	}
	r.Expect(t, 1)
	cmdtest.Contains(t, "stderr", r.Stderr, "Pay with a declined card FAILED", "POST /api/payments 502",
		"issue CRITICAL: Payment step goes blank on a declined card")
	mu.Lock()
	defer mu.Unlock()
	want := []string{"testCases=all issues=true", "testCases=all issues=", "testCases= issues=true"}
	if strings.Join(reads, "; ") != strings.Join(want, "; ") {
		t.Errorf("reads of the run %q, want %q: with its issues (stalled), without them, the evidence's issues", reads, want)
	}
}
