package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// A service or proxy that quotes the key back, in an error message, a body
// or a header, must not make testctl print it.
func TestAnswersQuotingTheKeyAreRedacted(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		w.Header().Set("X-Echo", got)
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"message":"invalid key ` + got + `"}`))
	})
	resp, err := c.Raw(context.Background(), http.MethodGet, "/v1/run", nil, nil)
	var he *HTTPError
	if !errors.As(err, &he) || resp == nil {
		t.Fatalf("got %v, want an HTTP error with the response", err)
	}
	for what, s := range map[string]string{"error": err.Error(), "body": string(resp.Body), "header": resp.Header.Get("X-Echo")} {
		if strings.Contains(s, c.APIKey) || !strings.Contains(s, "[REDACTED]") {
			t.Errorf("%s not redacted: %q", what, s)
		}
	}
}

// A key too short to be real is not searched for: replacing "abc" would
// garble ordinary answers.
func TestShortKeysDoNotGarbleAnswers(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"runs":[{"shortId":"abc","status":"COMPLETED"}],"total":1,"limit":20,"offset":0}`))
	})
	c.APIKey = "abc"
	list, err := c.ListRuns(context.Background(), ListRunsOptions{})
	if err != nil || len(list.Runs) != 1 || list.Runs[0].ShortID != "abc" {
		t.Fatalf("got %+v, %v", list, err)
	}
}

// An application URL the service echoes (its run document, an error) is
// shown with its query values concealed, as --debug shows the request.
func TestConcealedTextInAnswers(t *testing.T) {
	c, _, _ := newTestClient(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"url":"https://pr.example/?t=bypass-token-1&x=true"}`))
	})
	ctx := WithConcealed(context.Background(), "https://pr.example/?t=bypass-token-1&x=true", "https://pr.example/?t=***&x=***", "bypass-token-1", "***")
	resp, err := c.Raw(ctx, http.MethodGet, "/v1/run", nil, nil)
	if err != nil || string(resp.Body) != `{"url":"https://pr.example/?t=***&x=***"}` {
		t.Fatalf("got %s, %v", resp.Body, err)
	}
}
