package mcp

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testctl/testctl/pkg/exitcode"
)

func TestPatternsCompile(t *testing.T) {
	progressLine()
	startedLine()
}

// TestResultsAreBounded: a document over the bound keeps the first entries
// of its longest list and says what was cut and which call gets more.
func TestResultsAreBounded(t *testing.T) {
	runs := make([]any, 2000)
	for i := range runs {
		runs[i] = map[string]any{"shortId": fmt.Sprintf("r%05d", i), "status": "COMPLETED"}
	}
	doc := map[string]any{"runs": runs, "total": 2000}
	got, cut := bound(doc, maxDataBytes, pageOn("list_runs", 40))
	kept := got.(map[string]any)["runs"].([]any)
	if size(got) > maxDataBytes || len(kept) == 0 || len(kept) == 2000 {
		t.Fatalf("kept %d runs in %d bytes", len(kept), size(got))
	}
	want := fmt.Sprintf("data.runs: kept the first %d of 2000 entries", len(kept))
	if !strings.Contains(cut, want) || !strings.Contains(cut, fmt.Sprintf("call list_runs with offset %d", 40+len(kept))) {
		t.Errorf("cut %q", cut)
	}

	list, cut := bound(runs, 1024, nil)
	if size(list) > 1024 || !strings.HasPrefix(cut, "data: kept the first") {
		t.Errorf("a top-level list: %d bytes, %q", size(list), cut)
	}

	story, cut := boundText(strings.Repeat("a line of the story\n", 2000), maxTextBytes)
	if len(story) > maxTextBytes || !strings.HasSuffix(story, "\n") || !strings.Contains(cut, "run_report") {
		t.Errorf("story of %d bytes, cut %q", len(story), cut)
	}
}

// TestServiceTextIsSanitisedAndTheKeyRedacted: what the service says
// reaches the agent without control characters or bidi overrides, and the
// key never does, in the document or the text.
func TestServiceTextIsSanitisedAndTheKeyRedacted(t *testing.T) {
	s := &server{apiKey: "tk_live_secret123", keyRead: true}
	inv := invocation{
		stdout: `{"shortId":"r1a2b3","url":"https://x/runs/r1a2b3","runTestCases":[],"name":"a\u001b[31mred\u202egnp.exe","note":"key tk_live_secret123"}`,
		stderr: "error: the service said \x1b]0;title\x07 tk_live_secret123 \u202eevil\n",
		code:   exitcode.Service,
	}
	res, out := s.build(inv, readKind, nil, nil)
	b := []byte(res.Content[0].(*mcp.TextContent).Text)
	data := fmt.Sprint(out.Data)
	for _, bad := range []string{"\x1b", "\u202e", "\x07", "tk_live_secret123"} {
		if strings.Contains(string(b), bad) || strings.Contains(data, bad) {
			t.Errorf("%q reached the result: %s / %s", bad, b, data)
		}
	}
	if !res.IsError || !strings.Contains(string(b), "[redacted]") {
		t.Errorf("result %s", b)
	}
}

// TestCancelledWaitSaysHowToResume: the text of a wait a cancelled request
// ended names the call that takes it up.
func TestCancelledWaitSaysHowToResume(t *testing.T) {
	s := &server{keyRead: true}
	res, out := s.build(invocation{stderr: "✓ Started run r9x8y7 (5 tests): https://x/runs/r9x8y7\ninterrupted\n", code: exitcode.Interrupted}, verdictKind, nil, nil)
	b := []byte(res.Content[0].(*mcp.TextContent).Text)
	if res.IsError || out.Verdict != "interrupted" || !strings.Contains(string(b), `resume it with wait_run {"run_ids": ["r9x8y7"]}`) {
		t.Errorf("%+v %s", out, b)
	}
}

// TestOtherOriginsRefused: a request a web page of another origin sends
// (DNS rebinding, a cross-site POST) is refused; a client without an
// Origin, or of the server's own, gets through.
func TestOtherOriginsRefused(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	h := sameOrigin("127.0.0.1:8765", ok)
	for origin, want := range map[string]int{
		"":                         http.StatusNoContent,
		"http://127.0.0.1:8765":    http.StatusNoContent,
		"http://localhost:8765":    http.StatusNoContent,
		"http://evil.example":      http.StatusForbidden,
		"http://127.0.0.1:9999":    http.StatusForbidden,
		"http://localhost.evil:80": http.StatusForbidden,
		"null":                     http.StatusForbidden,
	} {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8765/mcp", nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Origin %q: %d, want %d", origin, rec.Code, want)
		}
	}
}

// TestTableIsBounded: the text stays within the bound with the story, its
// table kept from the top in whole rows, and the cut says so and which
// call pages on (issue 42, point 1).
func TestTableIsBounded(t *testing.T) {
	s := &server{keyRead: true}
	var table strings.Builder
	table.WriteString("SHORT ID\tSTATUS\n")
	for i := range 1000 {
		fmt.Fprintf(&table, "r%05d\tCOMPLETED/PASSED\n", i)
	}
	story := strings.Repeat("a line of the story\n", 200)
	res, out := s.build(invocation{stdout: `{"runs":[]}`, table: table.String(), stderr: story}, readKind, nil, pageOn("list_runs", 0))
	text := res.Content[0].(*mcp.TextContent).Text
	body := text[strings.Index(text, "SHORT ID"):strings.Index(text, "\nCut: ")]
	if len(body) > maxTextBytes || !strings.Contains(text, story) {
		t.Errorf("table and story in %d bytes, bound %d; the story whole: %v", len(body), maxTextBytes, strings.Contains(text, story))
	}
	rows := strings.Count(body, "\tCOMPLETED/PASSED\n")
	want := fmt.Sprintf("the table: kept the first %d of 1000 rows", rows)
	if rows == 0 || rows == 1000 || !strings.Contains(out.Cut, want) || !strings.Contains(out.Cut, fmt.Sprintf("call list_runs with offset %d", rows)) {
		t.Errorf("%d rows kept; cut %q", rows, out.Cut)
	}
	if !strings.Contains(text, "Cut: "+out.Cut) {
		t.Errorf("the text does not say what was cut:\n%s", text[len(text)-400:])
	}
}
