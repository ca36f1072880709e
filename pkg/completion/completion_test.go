package completion

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil"
)

// deadlines records the deadline of every request it carries.
type deadlines struct {
	mu   sync.Mutex
	seen []time.Time
}

func (d *deadlines) RoundTrip(req *http.Request) (*http.Response, error) {
	dl, ok := req.Context().Deadline()
	d.mu.Lock()
	if !ok {
		dl = time.Time{}
	}
	d.seen = append(d.seen, dl)
	d.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// Against a service that accepts and never answers, every completion
// returns with nothing, each of its requests bounded by a context of at
// most Timeout, although the command's own context has no deadline; the
// server sees the request given up.
func TestCompletionIsBoundedAgainstAServerThatNeverAnswers(t *testing.T) {
	gaveUp := make(chan struct{}, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // no answer until the client gives up
		gaveUp <- struct{}{}
	}))
	defer srv.Close()
	rec := &deadlines{}
	f := &cmdutil.Factory{
		LookupEnv: func(string) (string, bool) { return "", false },
		Globals:   &cmdutil.GlobalFlags{},
		PublicAPIClient: func() (*api.Client, error) {
			return &api.Client{BaseURL: srv.URL, APIKey: "k", HTTPClient: &http.Client{Transport: rec}, Retry: api.DefaultRetryPolicy}, nil
		},
	}
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	for name, complete := range map[string]func() ([]cobra.Completion, cobra.ShellCompDirective){
		"--plan":   func() ([]cobra.Completion, cobra.ShellCompDirective) { return CompletePlans(f)(cmd, nil, "") },
		"run id":   func() ([]cobra.Completion, cobra.ShellCompDirective) { return CompleteRunIDs(f)(cmd, nil, "") },
		"logs RUN": func() ([]cobra.Completion, cobra.ShellCompDirective) { return CompleteRunTestCases(f)(cmd, nil, "") },
		"logs RUN-": func() ([]cobra.Completion, cobra.ShellCompDirective) {
			return CompleteRunTestCases(f)(cmd, nil, "r1a2b3-")
		},
	} {
		before := len(rec.seen)
		asked := time.Now()
		got, _ := complete()
		if len(got) != 0 {
			t.Errorf("%s: offered %v without an answer", name, got)
		}
		rec.mu.Lock()
		seen := rec.seen[before:]
		rec.mu.Unlock()
		if len(seen) != 1 {
			t.Fatalf("%s: %d requests, want 1 (no retry)", name, len(seen))
		}
		// The deadline is set a moment after asked: 100 ms covers that
		// moment on a loaded machine, and a bound twice as long fails.
		if seen[0].IsZero() || seen[0].After(asked.Add(Timeout+100*time.Millisecond)) {
			t.Errorf("%s: the request's deadline is %v after the completion began, want %v", name, seen[0].Sub(asked), Timeout)
		}
		<-gaveUp
	}
}

// Without a key nothing is asked.
func TestCompletionWithoutAKeyAsksNothing(t *testing.T) {
	f := &cmdutil.Factory{
		LookupEnv: func(string) (string, bool) { return "", false },
		Globals:   &cmdutil.GlobalFlags{},
		PublicAPIClient: func() (*api.Client, error) {
			return &api.Client{BaseURL: "http://127.0.0.1:1", HTTPClient: &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
				t.Error("a request was sent without a key")
				return nil, context.Canceled
			})}}, nil
		},
	}
	cmd := &cobra.Command{}
	if got, _ := CompletePlans(f)(cmd, nil, ""); len(got) != 0 {
		t.Errorf("--plan offered %v", got)
	}
	if got, _ := CompleteRunTestCases(f)(cmd, nil, "r1-"); len(got) != 0 {
		t.Errorf("logs offered %v", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
