package sandbox

import (
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
)

func getLogs(t *testing.T, s *Server, rtc, query string) api.LogsResponse {
	t.Helper()
	return decode[api.LogsResponse](t, send(t, s, "GET", "/v1/run-test-case/"+rtc+"/logs?"+query, ProjectKey, nil), http.StatusOK)
}

// finishedPassingRun returns a completed run of the passing plan, whose
// test cases are 1 login, 2 search (600 requests), 3 health API, 4 cart,
// 5 checkout.
func finishedPassingRun(t *testing.T, opts Options) (*Server, string) {
	s, fake := newSandbox(t, opts)
	id := startPlan(t, s, PlanPassing).Run.ShortID
	advance(fake, 30)
	return s, id
}

func TestNetworkLogsCapAndFilters(t *testing.T) {
	s, id := finishedPassingRun(t, Options{})
	all := getLogs(t, s, id+"-2", "kind=network")
	if all.RunTestCaseShortID != id+"-2" || all.Kind != "network" || all.TotalMatched != heavyNetwork ||
		all.Returned != LogsPerCallCap || len(all.Network) != LogsPerCallCap || !all.HasMore ||
		!strings.Contains(all.Message, "urlPattern") || all.Console != nil || all.APICalls != nil {
		t.Fatalf("capped: matched %d returned %d hasMore %v message %q", all.TotalMatched, all.Returned, all.HasMore, all.Message)
	}
	var zero, cors, fourxx, fivexx, headers bool
	for _, n := range all.Network {
		zero = zero || (n.StatusCode == 0 && n.ErrorText != "" && n.DurationMs == nil && n.IsError)
		cors = cors || n.CrossOriginInfo != ""
		fourxx = fourxx || (n.StatusCode >= 400 && n.StatusCode < 500 && n.IsError)
		fivexx = fivexx || (n.StatusCode >= 500 && n.IsError)
		headers = headers || len(n.CustomExtraHeaders) > 0
		if n.URL == "" || n.Method == "" {
			t.Errorf("entry %+v", n)
		}
	}
	if !zero || !cors || !fourxx || !fivexx || !headers {
		t.Errorf("edge cases missing: status0 %v cors %v 4xx %v 5xx %v headers %v", zero, cors, fourxx, fivexx, headers)
	}

	errs := getLogs(t, s, id+"-2", "kind=network&statusFilter=errors")
	if errs.TotalMatched == 0 || errs.HasMore || errs.Message != "" {
		t.Errorf("errors: %d matched, message %q", errs.TotalMatched, errs.Message)
	}
	for _, n := range errs.Network {
		if !(n.StatusCode == 0 || n.StatusCode >= 400) {
			t.Errorf("errors filter let through %d", n.StatusCode)
		}
	}
	ok := getLogs(t, s, id+"-2", "kind=network&statusFilter=success&urlPattern="+url.QueryEscape(`API/SEARCH\?q=`))
	if ok.TotalMatched == 0 {
		t.Error("success + case-insensitive urlPattern matched nothing")
	}
	for _, n := range ok.Network {
		if n.StatusCode < 200 || n.StatusCode >= 400 || !strings.Contains(n.URL, "/api/search?q=") {
			t.Errorf("success/urlPattern let through %+v", n)
		}
	}
	if sum := errs.TotalMatched + getLogs(t, s, id+"-2", "kind=network&statusFilter=success").TotalMatched; sum != heavyNetwork {
		t.Errorf("errors + success = %d, want every entry (%d)", sum, heavyNetwork)
	}
	none := getLogs(t, s, id+"-2", "kind=network&urlPattern=nothing-like-this")
	if none.TotalMatched != 0 || none.Network == nil || !strings.Contains(none.Message, "broader") {
		t.Errorf("no match: %+v", none)
	}
	// Console-only flags do not change network results.
	if n := getLogs(t, s, id+"-2", "kind=network&includeInfo=true&includeWarnings=true").TotalMatched; n != heavyNetwork {
		t.Errorf("console flags changed network results: %d", n)
	}
	wantError(t, send(t, s, "GET", "/v1/run-test-case/"+id+"-2/logs?kind=network&urlPattern=(", ProjectKey, nil), 400, "urlPattern")
	wantError(t, send(t, s, "GET", "/v1/run-test-case/"+id+"-2/logs?kind=network&statusFilter=bad", ProjectKey, nil), 400, "statusFilter")
	wantError(t, send(t, s, "GET", "/v1/run-test-case/"+id+"-2/logs", ProjectKey, nil), 400, "kind is required")
	wantError(t, send(t, s, "GET", "/v1/run-test-case/"+id+"-2/logs?kind=dom", ProjectKey, nil), 400, "kind")
	wantError(t, send(t, s, "GET", "/v1/run-test-case/"+id+"-2/logs?kind=console&includeInfo=1", ProjectKey, nil), 400, "includeInfo")
	for _, bad := range []string{"nope", id, id + "-0", id + "-6", id + "-02", "zzzzzz-1"} {
		wantError(t, send(t, s, "GET", "/v1/run-test-case/"+bad+"/logs?kind=console", ProjectKey, nil), 404, bad)
	}
}

func TestConsoleLogs(t *testing.T) {
	s, id := finishedPassingRun(t, Options{})
	levels := func(l api.LogsResponse) map[string]int {
		m := map[string]int{}
		for _, c := range l.Console {
			m[c.Level]++
		}
		return m
	}
	plain := getLogs(t, s, id+"-1", "kind=console")
	if m := levels(plain); m["warning"] != 0 || m["info"] != 0 || m["error"] == 0 || m["log"] == 0 {
		t.Errorf("default levels %v", m)
	}
	warn := getLogs(t, s, id+"-1", "kind=console&includeWarnings=true")
	info := getLogs(t, s, id+"-1", "kind=console&includeInfo=true")
	both := getLogs(t, s, id+"-1", "kind=console&includeWarnings=true&includeInfo=true")
	if levels(warn)["warning"] == 0 || levels(warn)["info"] != 0 || levels(info)["info"] == 0 || levels(info)["warning"] != 0 {
		t.Errorf("flags: warnings %v info %v", levels(warn), levels(info))
	}
	if both.TotalMatched != int32(len(both.Console)) || both.TotalMatched <= plain.TotalMatched || both.HasMore {
		t.Errorf("all levels: %d of %d", both.Returned, both.TotalMatched)
	}
	messages := map[string]bool{}
	prev := int32(0)
	for i, c := range both.Console {
		messages[c.Message] = true
		if c.RelativeTimestampSeconds < prev || (i == 0 && c.RelativeTimestampSeconds != 0) {
			t.Errorf("timestamps not relative to the first entry: %d after %d", c.RelativeTimestampSeconds, prev)
		}
		prev = c.RelativeTimestampSeconds
	}
	for _, esc := range []string{EscapeColour, EscapeTitle, EscapeHyperlink} {
		if !messages[esc] {
			t.Errorf("escape message %q missing", esc)
		}
	}
	// The escapes reach the wire as JSON escapes, not raw bytes.
	raw := send(t, s, "GET", "/v1/run-test-case/"+id+"-1/logs?kind=console", ProjectKey, nil).Body.String()
	if strings.ContainsRune(raw, 0x1b) || !strings.Contains(raw, `\u001b]0;pwned\u0007`) {
		t.Errorf("escapes on the wire: %q", raw)
	}
	// urlPattern and statusFilter do not apply to console.
	if n := getLogs(t, s, id+"-1", "kind=console&urlPattern=zzz&statusFilter=errors").TotalMatched; n != plain.TotalMatched {
		t.Errorf("network filters changed console results")
	}
}

func TestAPICallLogs(t *testing.T) {
	s, id := finishedPassingRun(t, Options{})
	calls := getLogs(t, s, id+"-3", "kind=apiCalls")
	if calls.TotalMatched == 0 || calls.HasMore || calls.Network != nil {
		t.Fatalf("api calls %+v", calls)
	}
	var truncReq, truncResp, nullStatus, text, hdrs bool
	for _, a := range calls.APICalls {
		truncReq = truncReq || (a.RequestBodyTruncated && len(a.RequestBody) == BodyTruncateAt)
		truncResp = truncResp || (a.ResponseBodyTruncated && len(a.ResponseBody) == BodyTruncateAt)
		nullStatus = nullStatus || (a.StatusCode == nil && !a.Success && a.ErrorMessage != "" && a.DurationMs == nil)
		text = text || (a.TextResult != nil && *a.TextResult != "")
		hdrs = hdrs || a.RequestHeaders["Accept"] != ""
	}
	if !truncReq || !truncResp || !nullStatus || !text || !hdrs {
		t.Errorf("api call edge cases: %v %v %v %v %v", truncReq, truncResp, nullStatus, text, hdrs)
	}
	errs := getLogs(t, s, id+"-3", "kind=apiCalls&statusFilter=errors")
	success := getLogs(t, s, id+"-3", "kind=apiCalls&statusFilter=success&urlPattern=/V1/")
	for _, a := range errs.APICalls {
		if a.Success && a.StatusCode != nil && *a.StatusCode < 400 {
			t.Errorf("errors filter let through %+v", a)
		}
	}
	for _, a := range success.APICalls {
		if !a.Success || *a.StatusCode >= 400 || !strings.Contains(a.URL, "/v1/") {
			t.Errorf("success filter let through %+v", a)
		}
	}
	if errs.TotalMatched < 2 || success.TotalMatched < 2 {
		t.Errorf("errors %d, success %d", errs.TotalMatched, success.TotalMatched)
	}
	// Nothing captured: an API test has no browser, a browser test no API calls.
	for _, q := range []struct{ rtc, query, hint string }{
		{id + "-3", "kind=network", "apiCalls"}, {id + "-3", "kind=console", "apiCalls"},
		{id + "-1", "kind=apiCalls", "API tests"},
	} {
		l := getLogs(t, s, q.rtc, q.query)
		if l.TotalMatched != 0 || l.Returned != 0 || l.HasMore || !strings.Contains(l.Message, q.hint) {
			t.Errorf("%s %s: %+v", q.rtc, q.query, l)
		}
	}
}

func TestLogsFollowTheRun(t *testing.T) {
	s, fake := newSandbox(t, Options{})
	id := startPlan(t, s, PlanFailing).Run.ShortID
	// Case 6 (order email) never runs; case 2 (coupon) runs 1.5 s to 6.5 s.
	if l := getLogs(t, s, id+"-2", "kind=network"); l.TotalMatched != 0 || !strings.Contains(l.Message, "not started") {
		t.Errorf("before start: %+v", l)
	}
	advance(fake, 4)
	mid := getLogs(t, s, id+"-2", "kind=network")
	advance(fake, 10)
	end := getLogs(t, s, id+"-2", "kind=network")
	if mid.TotalMatched == 0 || mid.TotalMatched >= end.TotalMatched || !strings.Contains(mid.Message, "still running") || end.Message != "" {
		t.Errorf("mid-run %d (%q), finished %d (%q)", mid.TotalMatched, mid.Message, end.TotalMatched, end.Message)
	}
	if !reflect.DeepEqual(mid.Network, end.Network[:len(mid.Network)]) {
		t.Error("the capture so far is not a prefix of the whole")
	}
	if l := getLogs(t, s, id+"-6", "kind=console"); l.TotalMatched != 0 || !strings.Contains(l.Message, "did not run") {
		t.Errorf("skipped case: %+v", l)
	}
}

func TestTelemetryIsDeterministic(t *testing.T) {
	a, ida := finishedPassingRun(t, Options{Seed: 5})
	b, idb := finishedPassingRun(t, Options{Seed: 5})
	c, idc := finishedPassingRun(t, Options{Seed: 6})
	strip := regexp.MustCompile(`r[0-9a-z]{5}-`)
	body := func(s *Server, id, q string) string {
		return strip.ReplaceAllString(send(t, s, "GET", "/v1/run-test-case/"+id+"-1/logs?"+q, ProjectKey, nil).Body.String(), "")
	}
	for _, q := range []string{"kind=network", "kind=console&includeInfo=true&includeWarnings=true"} {
		if body(a, ida, q) != body(b, idb, q) {
			t.Errorf("%s differs for the same seed", q)
		}
		if body(a, ida, q) == body(c, idc, q) {
			t.Errorf("%s is the same for different seeds", q)
		}
	}
}
