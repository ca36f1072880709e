package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/clock"
)

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// newSandbox returns a sandbox on a fake clock.
func newSandbox(t testing.TB, opts Options) (*Server, *clock.Fake) {
	t.Helper()
	fake := clock.NewFake(epoch)
	opts.Clock = fake
	return New(opts), fake
}

// send sends one request straight to the handler. A string body is sent
// as is; anything else is encoded as JSON.
func send(t testing.TB, s *Server, method, target, key string, body any) *httptest.ResponseRecorder {
	t.Helper()
	var rd *bytes.Reader
	switch b := body.(type) {
	case nil:
		rd = bytes.NewReader(nil)
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req := httptest.NewRequest(method, target, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

// decode parses a JSON answer after checking its status.
func decode[T any](t testing.TB, rec *httptest.ResponseRecorder, status int) T {
	t.Helper()
	var v T
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decoding %s: %v", rec.Body, err)
	}
	return v
}

// wantError checks an error answer's status and that its message mentions
// every fragment.
func wantError(t *testing.T, rec *httptest.ResponseRecorder, status int, fragments ...string) {
	t.Helper()
	body := decode[api.ErrorBody](t, rec, status)
	if body.Message == "" {
		t.Fatalf("error without message: %s", rec.Body)
	}
	for _, f := range fragments {
		if !strings.Contains(body.Message, f) {
			t.Errorf("message %q does not mention %q", body.Message, f)
		}
	}
}

func startPlan(t *testing.T, s *Server, plan string) api.StartRunResponse {
	t.Helper()
	return decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run", ProjectKey,
		api.StartRunRequest{TestPlanShortID: plan}), http.StatusOK)
}

func startCases(t *testing.T, s *Server, ids ...string) api.StartRunResponse {
	t.Helper()
	return decode[api.StartRunResponse](t, send(t, s, "POST", "/v1/run", ProjectKey,
		api.StartRunRequest{TestCaseIDs: ids}), http.StatusOK)
}

func getRun(t testing.TB, s *Server, shortID, query string) api.RunDetail {
	t.Helper()
	return decode[api.RunDetail](t, send(t, s, "GET", "/v1/run/"+shortID+query, ProjectKey, nil), http.StatusOK)
}

// advance moves sandbox time on by sec seconds (at Speed 1).
func advance(fake *clock.Fake, sec float64) {
	fake.Advance(time.Duration(sec * float64(time.Second)))
}

func result(d api.RunDetail) string { return d.ResultOrEmpty() }

func newRequest(method, target, authorization string) *http.Request {
	r := httptest.NewRequest(method, target, nil)
	if authorization != "" {
		r.Header.Set("Authorization", authorization)
	}
	return r
}

func serve(s *Server, r *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, r)
	return rec
}
