package logs

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/testctl/testctl/pkg/api"
	"github.com/testctl/testctl/pkg/cmdutil/flagtest"
	"github.com/testctl/testctl/pkg/exitcode"
	"github.com/testctl/testctl/pkg/iostreams"
)

// parse runs a command line through NewCmdLogs: the Options its run would get.
var parse = flagtest.Parser(NewCmdLogs)

func TestFlagsToQuery(t *testing.T) {
	o, err := parse(t, "r1-3", "--kind", "api-calls", "--url", `/v1/orders\b`, "--status", "errors", "--full")
	if err != nil {
		t.Fatal(err)
	}
	want := api.LogsQuery{Kind: api.LogKindAPICalls, URLPattern: `/v1/orders\b`, StatusFilter: "errors"}
	if o.ShortID != "r1-3" || o.Query != want || !o.Full || o.PatternWarning != "" {
		t.Errorf("options: %+v", o)
	}
	o, err = parse(t, "r1-3", "--kind", "console", "--warnings", "--info")
	if err != nil || o.Query != (api.LogsQuery{Kind: api.LogKindConsole, IncludeWarnings: true, IncludeInfo: true}) {
		t.Errorf("console: %v %+v", err, o)
	}
	// Without --status nothing is sent and the service's default (all) applies.
	o, err = parse(t, "r1-3", "--kind", "NETWORK")
	if err != nil || o.Query != (api.LogsQuery{Kind: api.LogKindNetwork}) {
		t.Errorf("network: %v %+v", err, o)
	}
	// The console log shows warnings unless told not to.
	o, err = parse(t, "r1-3", "--kind", "console")
	if err != nil || o.Query != (api.LogsQuery{Kind: api.LogKindConsole, IncludeWarnings: true}) {
		t.Errorf("console by default: %v %+v", err, o)
	}
	o, err = parse(t, "r1-3", "--kind", "console", "--warnings=false")
	if err != nil || o.Query != (api.LogsQuery{Kind: api.LogKindConsole}) {
		t.Errorf("console --warnings=false: %v %+v", err, o)
	}
}

func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"r1-3"}, "--kind is required"},
		{[]string{"r1-3", "--kind", "logs"}, "--kind must be"},
		{[]string{"r1-3", "--kind", "network", "--warnings"}, "--warnings applies only to --kind console"},
		{[]string{"r1-3", "--kind", "api-calls", "--info"}, "--info applies only to --kind console"},
		{[]string{"r1-3", "--kind", "console", "--url", "api"}, "--url applies only"},
		{[]string{"r1-3", "--kind", "console", "--status", "all"}, "--status applies only"},
		{[]string{"r1-3", "--kind", "network", "--full"}, "--full applies only to --kind api-calls"},
		{[]string{"r1-3", "--kind", "network", "--status", "failed"}, "--status must be"},
		{[]string{"r1-3", "--kind", "network", "--url", "(api"}, "--url"},
		{[]string{"r1-3", "--kind", "network", "--url", "[a-"}, "--url"},
		{[]string{"r1-3", "--kind", "network", "--url", ""}, "--url"},
		{[]string{"r1 3", "--kind", "network"}, "run test case short id"},
		{[]string{"../r1", "--kind", "network"}, "run test case short id"},
	} {
		_, err := parse(t, tc.args...)
		var fe *exitcode.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
	if _, err := parse(t, "--kind", "network"); err == nil {
		t.Error("no short id accepted")
	}
}

// Constructs RE2 lacks but Perl-style engines have are passed on with a
// warning instead of refused: the service's flavour is not published.
func TestPerlOnlyPatternsPassWithWarning(t *testing.T) {
	for _, p := range []string{`(?=.*api)`, `^(?!.*static)`, `(?<=/)api`, `(?<!x)y`, `(a)\1`, `\k<n>`, `a*+`, `(?>a)`} {
		o, err := parse(t, "r1-3", "--kind", "network", "--url", p)
		if err != nil || o.PatternWarning == "" || o.Query.URLPattern != p {
			t.Errorf("%q: %v %+v", p, err, o)
		}
	}
}

// Credential headers are masked in the decoded answer (tables) and in the
// service's document (-o json), which is otherwise printed as sent.
func TestMaskHeaders(t *testing.T) {
	headers := map[string]string{
		"Authorization": "Bearer sk_live_123", "Cookie": "sid=abc", "X-Api-Key": "k1", "X-Auth-Token": "t1",
		"Proxy-Authorization": "Basic dXNlcjpwYXNz", "Accept": "application/json", "X-Request-Id": "42", "Authorization2": "",
	}
	doc, _ := json.Marshal(map[string]any{"kind": "apiCalls", "apiCalls": []any{map[string]any{"requestHeaders": headers}}, "novel": "kept"})
	var resp api.LogsResponse
	if err := json.Unmarshal(doc, &resp); err != nil {
		t.Fatal(err)
	}
	resp.SetRawJSON(doc)
	if err := maskHeaders(&resp); err != nil {
		t.Fatal(err)
	}
	var printed struct {
		APICalls []api.APICallEntry `json:"apiCalls"`
		Novel    string             `json:"novel"`
	}
	if err := json.Unmarshal(resp.RawJSON(), &printed); err != nil || printed.Novel != "kept" || len(printed.APICalls) != 1 {
		t.Fatalf("%v: %s", err, resp.RawJSON())
	}
	want := map[string]string{"Authorization": "Bearer ****", "Cookie": "****", "X-Api-Key": "****", "X-Auth-Token": "****",
		"Proxy-Authorization": "Basic ****", "Accept": "application/json", "X-Request-Id": "42", "Authorization2": ""}
	for k, v := range want {
		if got := resp.APICalls[0].RequestHeaders[k]; got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
		if got := printed.APICalls[0].RequestHeaders[k]; got != v {
			t.Errorf("document: %s: %q, want %q", k, got, v)
		}
	}
}

// --full prints service text in blocks outside the table: it is sanitised
// there too.
func TestFullNeverPrintsEscapes(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	ios.SetNoColorEnv(true)
	code, ms := int32(500), int32(1500)
	text := "boom \x1b]0;pwned\x07done"
	err := printFull(ios, []api.APICallEntry{{
		Method: "POST", URL: "https://x.invalid/\x1b[2J", StatusCode: &code, DurationMs: &ms, TextResult: &text,
		RequestHeaders: map[string]string{"X-Note\x1b[1m": "a\x1b[31mb\nc"}, RequestBody: `{"a":"\u001b[31m"}`,
		ResponseBody: "line1\n\x1b[31mline2\r\u009b2J", ResponseBodyTruncated: true, ErrorMessage: "upstream \x1b[5mfailed",
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.ContainsAny(s, "\x1b\x07\r\u009b") || strings.Contains(s, "pwned") {
		t.Errorf("escape sequence reached the terminal: %q", s)
	}
	for _, want := range []string{"POST https://x.invalid/", "status 500 · failure · 1.5s", "result:", "boom done",
		"X-Note: ab c", "request body:", `"a": "\u001b[31m"`, "response body (truncated by the service):",
		"    line1\n    line2", "error:", "upstream failed"} {
		if !strings.Contains(s, want) {
			t.Errorf("--full lacks %q:\n%s", want, s)
		}
	}
}

// The time column: the service's relativeTimestampMs, or empty when it
// sends none (the published API gives none), never a made-up time.
func TestTimeColumn(t *testing.T) {
	at, code := int64(4900), int32(502)
	ios, _, out, _ := iostreams.Test()
	st := ios.Styles()
	if err := networkTable(ios, st, []api.NetworkEntry{
		{Method: "POST", URL: "https://x.invalid/api/payments", StatusCode: 502, RelativeTimestampMs: &at},
		{Method: "GET", URL: "https://x.invalid/", StatusCode: 200},
	}).Render(); err != nil {
		t.Fatal(err)
	}
	want := "TIME\tMETHOD\tSTATUS\tDURATION\tURL\tERROR\n+4.9s\tPOST\t502\t-\thttps://x.invalid/api/payments\t\n\tGET\t200\t-\thttps://x.invalid/\t\n"
	if out.String() != want {
		t.Errorf("network table:\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	if err := apiCallsTable(ios, st, []api.APICallEntry{{Method: "GET", URL: "https://x.invalid/health", StatusCode: &code, RelativeTimestampMs: &at}}).Render(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "TIME\tMETHOD\tSTATUS\tSUCCESS\t") || !strings.Contains(out.String(), "\n+4.9s\tGET\t502\tno\t") {
		t.Errorf("API calls table:\n%s", out)
	}
	out.Reset()
	if err := printFull(ios, []api.APICallEntry{{Method: "GET", URL: "https://x.invalid/health", StatusCode: &code, RelativeTimestampMs: &at}}); err != nil ||
		!strings.Contains(out.String(), "· at +4.9s\n") {
		t.Errorf("--full: %v\n%s", err, out)
	}
}

func TestCells(t *testing.T) {
	zero, ms, big := int32(0), int32(87), int32(12345)
	line, col, src := int32(3), int32(9), "app.js"
	if statusText(&zero) != "failed" || statusText(nil) != "failed" || statusText(&ms) != "87" {
		t.Error("statusText")
	}
	if duration(nil) != "-" || duration(&ms) != "87ms" || duration(&big) != "12.3s" {
		t.Error("duration")
	}
	if source(api.ConsoleEntry{}) != "-" || source(api.ConsoleEntry{Source: &src, Line: &line, Column: &col}) != "app.js:3:9" ||
		source(api.ConsoleEntry{Source: &src, Line: &line}) != "app.js:3" {
		t.Error("source")
	}
	if truncationMarks(api.APICallEntry{RequestBodyTruncated: true, ResponseBodyTruncated: true}) != "request,response" ||
		truncationMarks(api.APICallEntry{}) != "-" {
		t.Error("truncationMarks")
	}
}

func TestNotes(t *testing.T) {
	capped := func(kind string) *api.LogsResponse {
		return &api.LogsResponse{Kind: kind, HasMore: true, Returned: 250, TotalMatched: 600,
			Message: "Showing the first 250 of 600 matching entries; narrow the result with urlPattern or statusFilter."}
	}
	for _, tc := range []struct {
		name  string
		resp  *api.LogsResponse
		q     api.LogsQuery
		empty bool
		want  string
	}{
		{"capped network", capped(api.LogKindNetwork), api.LogsQuery{}, false,
			"! showing 250 of 600 matching entries; narrow the result with --url or --status\n"},
		{"capped api calls", capped(api.LogKindAPICalls), api.LogsQuery{StatusFilter: "errors"}, false,
			"! showing 250 of 600 matching entries; narrow the result with --url or --status\n"},
		{"capped console with both levels", capped(api.LogKindConsole), api.LogsQuery{IncludeWarnings: true, IncludeInfo: true}, false,
			"! showing 250 of 600 matching entries; narrow the result with --warnings=false, or without --info\n"},
		{"capped console by default", capped(api.LogKindConsole), api.LogsQuery{IncludeWarnings: true}, false,
			"! showing 250 of 600 matching entries; narrow the result with --warnings=false\n"},
		{"capped console with info", capped(api.LogKindConsole), api.LogsQuery{IncludeInfo: true}, false,
			"! showing 250 of 600 matching entries; narrow the result without --info\n"},
		{"capped console errors", capped(api.LogKindConsole), api.LogsQuery{}, false,
			"! showing 250 of 600 matching entries (errors and log-level messages, which no filter leaves out: the service's cap per call)\n"},
		{"service message", &api.LogsResponse{Kind: api.LogKindNetwork, Message: "Nothing was captured yet."}, api.LogsQuery{}, true,
			"Nothing was captured yet.\n"},
		{"service message naming its parameters", &api.LogsResponse{Kind: api.LogKindConsole,
			Message: "None of the 9 captured console entries match; warnings and info-level entries are hidden unless includeWarnings or includeInfo is true."}, api.LogsQuery{}, true,
			"None of the 9 captured console entries match; warnings and info-level entries are hidden unless --warnings or --info is on.\n"},
		{"network message naming its parameters", &api.LogsResponse{Kind: api.LogKindNetwork,
			Message: "None of the 600 captured entries match; use a broader urlPattern or statusFilter=all."}, api.LogsQuery{}, true,
			"None of the 600 captured entries match; use a broader --url or --status all.\n"},
		{"API test's message naming its kind", &api.LogsResponse{Kind: api.LogKindNetwork,
			Message: "Nothing was captured: this is an API test, which has no browser; read kind apiCalls."}, api.LogsQuery{}, true,
			"Nothing was captured: this is an API test, which has no browser; read --kind api-calls.\n"},
		{"empty without a message", &api.LogsResponse{Kind: api.LogKindNetwork}, api.LogsQuery{}, true,
			"No entries match.\n"},
		{"empty JSON", &api.LogsResponse{Kind: api.LogKindNetwork}, api.LogsQuery{}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, _, errOut := iostreams.Test()
			printNotes(ios, tc.resp, tc.q, tc.empty)
			if errOut.String() != tc.want {
				t.Errorf("stderr %q, want %q", errOut, tc.want)
			}
		})
	}
}
